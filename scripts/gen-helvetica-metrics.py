#!/usr/bin/env python3
"""Generate src/fonts/helvetica_widths.rs: Helvetica advance widths by encoding code.

The widths come from the AFM of URW's Nimbus Sans Regular (Debian package
fonts-urw-base35), which is metric-compatible with Adobe's Helvetica and is the font
ghostscript uses for /Helvetica. Two tables are written:

* StandardEncoding: the AFM's own `C` codes (its EncodingScheme is
  AdobeStandardEncoding). Codes with no glyph get the width of `.notdef`, because that
  is what ghostscript draws (nothing) and advances for them.
* WinAnsiEncoding: the glyph at each code of PDF's WinAnsiEncoding (PDF 32000-1:2008,
  Annex D.2), looked up by name. Codes WinAnsi leaves unassigned get 0.

It also writes the lowest and highest ink of the WinAnsi glyphs (for text extents), and
the Unicode scalar of every WinAnsi code from 0x80 to 0x9F (the only range where
WinAnsi differs from Latin-1), taken from Python's cp1252 codec.

Usage (from the crate root):
    python3 scripts/gen-helvetica-metrics.py [AFM] > src/fonts/helvetica_widths.rs
"""

import sys

DEFAULT_AFM = "/usr/share/fonts/type1/urw-base35/NimbusSans-Regular.afm"

# WinAnsiEncoding glyph names for codes 0x20..0xFF; None where WinAnsi assigns no glyph.
# 0xA0 is `space` and 0xAD is `hyphen`, as the PDF specification lists them.
ASCII_NAMES = (
    "space exclam quotedbl numbersign dollar percent ampersand quotesingle "
    "parenleft parenright asterisk plus comma hyphen period slash "
    "zero one two three four five six seven eight nine colon semicolon less equal "
    "greater question at A B C D E F G H I J K L M N O P Q R S T U V W X Y Z "
    "bracketleft backslash bracketright asciicircum underscore grave "
    "a b c d e f g h i j k l m n o p q r s t u v w x y z "
    "braceleft bar braceright asciitilde"
).split()
HIGH_NAMES = (
    # 0x7F
    "- "
    # 0x80..0x9F
    "Euro - quotesinglbase florin quotedblbase ellipsis dagger daggerdbl "
    "circumflex perthousand Scaron guilsinglleft OE - Zcaron - "
    "- quoteleft quoteright quotedblleft quotedblright bullet endash emdash "
    "tilde trademark scaron guilsinglright oe - zcaron Ydieresis "
    # 0xA0..0xBF
    "space exclamdown cent sterling currency yen brokenbar section "
    "dieresis copyright ordfeminine guillemotleft logicalnot hyphen registered macron "
    "degree plusminus twosuperior threesuperior acute mu paragraph periodcentered "
    "cedilla onesuperior ordmasculine guillemotright onequarter onehalf threequarters "
    "questiondown "
    # 0xC0..0xDF
    "Agrave Aacute Acircumflex Atilde Adieresis Aring AE Ccedilla "
    "Egrave Eacute Ecircumflex Edieresis Igrave Iacute Icircumflex Idieresis "
    "Eth Ntilde Ograve Oacute Ocircumflex Otilde Odieresis multiply "
    "Oslash Ugrave Uacute Ucircumflex Udieresis Yacute Thorn germandbls "
    # 0xE0..0xFF
    "agrave aacute acircumflex atilde adieresis aring ae ccedilla "
    "egrave eacute ecircumflex edieresis igrave iacute icircumflex idieresis "
    "eth ntilde ograve oacute ocircumflex otilde odieresis divide "
    "oslash ugrave uacute ucircumflex udieresis yacute thorn ydieresis"
).split()


def winansi_names():
    names = [None] * 256
    for i, n in enumerate(ASCII_NAMES):
        names[0x20 + i] = n
    for i, n in enumerate(HIGH_NAMES):
        names[0x7F + i] = None if n == "-" else n
    assert len(ASCII_NAMES) == 0x7F - 0x20 and len(HIGH_NAMES) == 0x100 - 0x7F
    return names


def read_afm(path):
    """Returns ({name: width}, {standard code: name}, {name: (bottom, top)})."""
    by_name, by_code, extent = {}, {}, {}
    with open(path, encoding="latin-1") as f:
        in_metrics = False
        for line in f:
            if line.startswith("StartCharMetrics"):
                in_metrics = True
                continue
            if line.startswith("EndCharMetrics"):
                break
            if not in_metrics:
                continue
            fields = {}
            for part in line.split(";"):
                words = part.split()
                if len(words) >= 2:
                    fields[words[0]] = words[1]
            code, width, name = int(fields["C"]), int(fields["WX"]), fields["N"]
            by_name[name] = width
            bbox = part_after(line, "B")
            extent[name] = (bbox[1], bbox[3])
            if code >= 0:
                by_code[code] = name
    return by_name, by_code, extent


def part_after(line, key):
    """The numbers of the `key n n n n` part of an AFM metrics line."""
    for part in line.split(";"):
        words = part.split()
        if words and words[0] == key:
            return [int(w) for w in words[1:]]
    raise ValueError(f"no {key} in {line!r}")


def rust_table(name, doc, values, comments):
    out = [f"/// {doc}", f"pub(crate) const {name}: [u16; 256] = ["]
    # Trailing comments aligned as rustfmt aligns them, so `cargo fmt` leaves it alone.
    pad = max(len(str(v)) for v in values) + 1
    for code, (v, c) in enumerate(zip(values, comments)):
        out.append(f"    {str(v) + ',':<{pad}} // 0x{code:02X} {c}")
    out.append("];")
    return "\n".join(out)


def main():
    afm = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_AFM
    widths, standard, extent = read_afm(afm)
    notdef = widths[".notdef"]

    std_values, std_comments = [], []
    for code in range(256):
        glyph = standard.get(code)
        std_values.append(widths[glyph] if glyph else notdef)
        std_comments.append(glyph or ".notdef")

    win_values, win_comments = [], []
    for code, glyph in enumerate(winansi_names()):
        if glyph is None:
            win_values.append(0)
            win_comments.append("(unassigned)")
        else:
            win_values.append(widths[glyph])  # KeyError = the font lacks a WinAnsi glyph
            win_comments.append(glyph)

    shown = [g for g in winansi_names() if g is not None]
    bottom = min(extent[g][0] for g in shown)
    top = max(extent[g][1] for g in shown)

    high = []
    for code in range(0x80, 0xA0):
        try:
            ch = bytes([code]).decode("cp1252")
        except UnicodeDecodeError:
            continue
        high.append(f"    ('\\u{{{ord(ch):04X}}}', 0x{code:02X}), // {winansi_names()[code]}")

    print("// @generated by scripts/gen-helvetica-metrics.py from")
    print(f"// {afm.rsplit('/', 1)[-1]} (Debian fonts-urw-base35). Do not edit; regenerate with:")
    print("//     python3 scripts/gen-helvetica-metrics.py > src/fonts/helvetica_widths.rs")
    print("//! Helvetica (Nimbus Sans) advance widths in 1/1000 em, by encoding code.")
    print()
    print("/// Lowest and highest ink of any WinAnsi glyph, in 1/1000 em from the baseline.")
    print(f"pub(crate) const WINANSI_INK_BOTTOM: i16 = {bottom};")
    print(f"pub(crate) const WINANSI_INK_TOP: i16 = {top};")
    print()
    print(rust_table(
        "STANDARD_ENCODING_WIDTHS",
        "Widths by StandardEncoding code (`.notdef` width where no glyph is encoded).",
        std_values, std_comments))
    print()
    print(rust_table(
        "WINANSI_WIDTHS",
        "Widths by WinAnsiEncoding code (0 where WinAnsi assigns no glyph).",
        win_values, win_comments))
    print()
    print("/// The characters WinAnsi encodes in 0x80..=0x9F (elsewhere it is Latin-1).")
    print(f"pub(crate) const WINANSI_80_9F: [(char, u8); {len(high)}] = [")
    print("\n".join(high))
    print("];")


if __name__ == "__main__":
    main()
