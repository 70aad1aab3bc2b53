//! Names: cost-centre stacks cut like GHC's `fprint_ccs`, closure descriptions and type
//! names, Unicode among them.

use super::Rng;

const LIB_MODULES: &[&str] = &[
    "Data.Map.Internal",
    "Data.Map.Strict.Internal",
    "Data.IntMap.Internal",
    "Data.Set.Internal",
    "Data.Sequence.Internal",
    "Data.Text.Internal",
    "Data.Text.Lazy",
    "Data.ByteString.Internal",
    "Data.ByteString.Lazy",
    "Data.HashMap.Internal",
    "Data.Vector.Mutable",
    "Data.Aeson.Types.Internal",
    "Data.OldList",
    "GHC.IO.Handle.Text",
    "GHC.IO.Handle.FD",
    "GHC.IO.Encoding",
    "GHC.IO.Encoding.Iconv",
    "GHC.Conc.Signal",
    "GHC.Base",
    "GHC.List",
    "GHC.Show",
    "GHC.Read",
    "GHC.Real",
    "GHC.Float",
    "GHC.Arr",
    "Control.Monad.State.Strict",
    "Control.Concurrent.MVar",
    "Text.Parsec.Prim",
    "Text.Printf",
    "System.IO",
];

const APP_MODULES: &[&str] = &[
    "Main",
    "Parser",
    "Lexer",
    "Config",
    "Render",
    "Store.Index",
    "Store.Cache",
    "Engine.Step",
    "Engine.Queue",
    "Report",
    "Util",
];

/// Library functions: may appear qualified at the top of a stack.
const LIB_FUNCTIONS: &[&str] = &[
    "insert",
    "insertWith",
    "lookup",
    "delete",
    "union",
    "unionWith",
    "fromList",
    "toList",
    "foldr",
    "foldl'",
    "foldlWithKey",
    "alter",
    "adjust",
    "map",
    "filter",
    "concatMap",
    "mapM_",
    "replicateM",
    "decode",
    "encode",
    "hGetLine",
    "hPutStr",
    "showsPrec",
    "readFile",
    "sortOn",
    "groupBy",
];

/// The program's own functions.
const APP_FUNCTIONS: &[&str] = &[
    "parse",
    "parseLine",
    "parseExpr",
    "tokenize",
    "lexToken",
    "render",
    "renderRow",
    "step",
    "simulate",
    "buildIndex",
    "mergeRuns",
    "readConfig",
    "loop",
    "worker",
    "process",
    "compute",
    "normalise",
    "emit",
    "flush",
    "update",
    "collect",
    "scan",
    "accumulate",
    "runRound",
    "cycleOnce",
    "queueSim",
    "lazyBuild",
];

/// Haskell allows Unicode identifiers; GHC writes them as UTF-8 and cuts
/// stacks by bytes, so a cut may even split a character (as GHC does).
const UNICODE_FUNCTIONS: &[&str] = &[
    "größeBerechnen",
    "tamaño",
    "データ処理",
    "λάμβδα",
    "ñandú",
    "café",
    "naïveSum",
    "π",
    "résumé",
    "ölçüm",
    "数据流",
    "überprüfen",
    "задача",
    "cœur",
];

/// Local bindings as GHC names them in stacks (`f.go`, `f.\` for lambdas).
const LOCAL_SUFFIXES: &[&str] = &[".go", ".\\", ".loop", ".xs", ".acc", ".step", "'", ".go.\\"];

/// What `-hy`/`-hT` show: types and RTS closure types.
pub(super) const TYPES: &[&str] = &[
    "[]",
    "(,)",
    "(,,)",
    "ARR_WORDS",
    "Int",
    "Integer",
    "Char",
    "Double",
    "Text",
    "ByteString",
    "Map",
    "IntMap",
    "Set",
    "Seq",
    "HashMap",
    "Vector",
    "MVar",
    "IORef",
    "MUT_VAR_CLEAN",
    "MUT_VAR_DIRTY",
    "MUT_ARR_PTRS_CLEAN",
    "MUT_ARR_PTRS_DIRTY",
    "BLACKHOLE",
    "TSO",
    "STACK",
    "WEAK",
    "Maybe",
    "Either",
    "->IO",
    "->[]",
    "->>Bool",
    "Handle__",
    "Buffer",
    "*",
    "(#,#)",
];

const CONSTRUCTORS: &[&str] = &[
    "Bin",
    "Tip",
    "Nil",
    "Deep",
    "Node3",
    "Four",
    "Text",
    "BS",
    "Chunk",
    ":",
    "I#",
    "C#",
    "D#",
    "Just",
    "Left",
    "Right",
    "Leaf",
    "Collision",
];

/// A cost-centre stack, innermost label first, printed like GHC's
/// `fprint_ccs`: `(ccid)top/…/bottom`, cut to `limit` bytes.
pub(super) fn ccs_name(rng: &mut Rng, ccid: u64, limit: usize) -> Vec<u8> {
    let mut labels: Vec<String> = Vec::new();
    if rng.chance(0.12) {
        // A library CAF on its own, e.g. `(243)GHC.IO.Handle.Text.CAF`.
        labels.push(format!("{}.CAF", rng.pick(LIB_MODULES)));
    } else {
        let depth = 1 + rng.below(8);
        for d in 0..depth {
            let label = if d == 0 && rng.chance(0.3) {
                // Library code at the top of the stack, qualified
                // (`Data.Map.Internal.insert`), as with explicit SCCs.
                format!("{}.{}", rng.pick(LIB_MODULES), rng.pick(LIB_FUNCTIONS))
            } else {
                let mut label = if rng.chance(0.04) {
                    rng.pick(UNICODE_FUNCTIONS).to_string()
                } else if rng.chance(0.6) {
                    rng.pick(APP_FUNCTIONS).to_string()
                } else {
                    rng.pick(LIB_FUNCTIONS).to_string()
                };
                if rng.chance(0.3) {
                    label.push_str(rng.pick(LOCAL_SUFFIXES));
                }
                label
            };
            labels.push(label);
        }
        // GHC stacks end at `main`, at a CAF, or at `main` under Main.CAF.
        match rng.below(3) {
            0 => labels.push("main".into()),
            1 => labels.push(format!("{}.CAF", rng.pick(APP_MODULES))),
            _ => {
                labels.push("main".into());
                labels.push("Main.CAF".into());
            }
        }
    }
    let stack = labels.join("/").into_bytes();
    let mut name = format!("({ccid})").into_bytes();
    // GHC: a buffer of limit+1 bytes; on overflow the text from byte
    // limit-4 on is replaced by "...". Byte-wise, like GHC.
    if stack.len() > limit {
        name.extend_from_slice(&stack[..limit - 4]);
        name.extend_from_slice(b"...");
    } else {
        name.extend_from_slice(&stack);
    }
    name
}

/// A closure description as in `-hd`: `<Data.Map.Internal.Bin>`,
/// `<Main.sat_s2Dq>`. Never cut (GHC only cuts stacks).
pub(super) fn closure_name(rng: &mut Rng) -> Vec<u8> {
    let library = rng.chance(0.6);
    let module = rng.pick(if library { LIB_MODULES } else { APP_MODULES });
    let binder = match rng.below(3) {
        0 => rng.pick(CONSTRUCTORS).to_string(),
        1 => format!("sat_s{}", unique_suffix(rng)),
        _ => {
            let f = if library {
                rng.pick(LIB_FUNCTIONS)
            } else if rng.chance(0.05) {
                rng.pick(UNICODE_FUNCTIONS)
            } else {
                rng.pick(APP_FUNCTIONS)
            };
            format!("{f}_s{}", unique_suffix(rng))
        }
    };
    format!("<{module}.{binder}>").into_bytes()
}

/// GHC's unique suffixes look like `sDEH`, `s2Dq`: a few base-62 digits.
fn unique_suffix(rng: &mut Rng) -> String {
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    (0..3 + rng.below(2))
        .map(|_| DIGITS[rng.below(DIGITS.len())] as char)
        .collect()
}
