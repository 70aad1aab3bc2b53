//! A time profile of more stacks than a page carries (`defaults::PAGE_STACKS`), in
//! headless Chromium: the page carries the widest stacks and says so (on the page and
//! on stderr), stays small, draws only what is a pixel wide, and zooming into a stack
//! draws its callees that were too narrow before, from the page's own data.
//!
//! The profile is written here: `+RTS -P`'s report of MAIN > main > 150 stacks of 1,000
//! leaves each, each leaf a thousandth of its caller (under a pixel of the whole tree,
//! more than one of its caller zoomed into). Needs `chromium` and `chromedriver`.

mod support;

use std::fmt::Write as _;

use serde_json::json;
use support::html_page::*;
use support::TempDir;

const SUBS: usize = 150;
const LEAVES: usize = 1000;

/// The report: `main` has as many ticks of its own as its callees together.
fn report() -> String {
    let leaf_ticks = 10u64;
    let sub_ticks = leaf_ticks * LEAVES as u64;
    let total = 2 * sub_ticks * SUBS as u64;
    let mut s = format!(
        "\tSat Nov 28 10:38 2026 Time and Allocation Profiling Report  (Final)\n\n\
         \t   deep +RTS -P -RTS\n\n\
         \ttotal time  =        {:.2} secs   ({total} ticks @ 1000 us, 1 processor)\n\
         \ttotal alloc = {total} bytes  (excludes profiling overheads)\n\n\
         COST CENTRE MODULE SRC no. entries %time %alloc %time %alloc ticks bytes\n\n",
        total as f64 / 1000.0
    );
    let mut no = 1;
    let mut row = |s: &mut String, depth: usize, label: &str, own: u64, inherited: u64| {
        let pct = |v: u64| 100.0 * v as f64 / total as f64;
        let _ = writeln!(
            s,
            "{}{label} Main M.hs:{no}:1 {no} 1 {:.1} {:.1} {:.1} {:.1} {own} {own}",
            " ".repeat(depth),
            pct(own),
            pct(own),
            pct(inherited),
            pct(inherited)
        );
        no += 1;
    };
    row(&mut s, 0, "MAIN", 0, total);
    row(&mut s, 1, "main", total / 2, total);
    for j in 0..SUBS {
        row(&mut s, 2, &format!("sub{j}"), 0, sub_ticks);
        for k in 0..LEAVES {
            row(&mut s, 3, &format!("leaf{j}_{k}"), leaf_ticks, leaf_ticks);
        }
    }
    s
}

#[test]
fn a_large_tree_is_thinned_and_zooming_draws_its_detail() {
    let dir = TempDir::new("html-time-large");
    let prof = dir.write("deep.prof", report().as_bytes());
    let out = dir.join("deep.html");
    let ran = support::Cmd::hp2ps()
        .args(["--format", "html", "-o"])
        .arg(&out)
        .arg(&prof)
        .current_dir(dir.path())
        .run();
    assert!(ran.status.success(), "{}", ran.describe());
    let e = String::from_utf8_lossy(&ran.stderr);
    assert!(
        e.contains("the page carries the widest of the 150,152 stacks"),
        "{e}"
    );
    let page = std::fs::read(&out).unwrap();
    assert!(page.len() < 6_000_000, "{} bytes", page.len());
    let data = data_of(&page);
    let time = &data["runs"][0]["time"];
    let carried = time["tree"]["cc"].as_array().unwrap().len();
    assert!(
        carried < 150_152 && carried > 20_000,
        "{carried} stacks carried"
    );
    assert_eq!(time["tree"]["thinned"], json!(true));
    let Some(browser) = browser() else {
        return;
    };
    let p = open_offline(&browser, &out);
    assert!(p
        .js("return document.querySelector('.time-profile .warning').textContent;")
        .as_str()
        .unwrap()
        .contains("widest"));
    // By ticks (the report's shares are tenths of a percent): the subs are drawn, their
    // leaves, a thousandth of a sub, are not.
    p.js("document.querySelector('.time-tools button[data-value=\"ticks\"]').click(); return 0;");
    let names = |p: &Page<'_>| -> Vec<String> {
        serde_json::from_value(p.js("return [...document.querySelectorAll('#calltree .fn')].map(e => e.getAttribute('aria-label').split(' ')[0]);")).unwrap()
    };
    let top = names(&p);
    assert!(
        top.iter().filter(|n| n.starts_with("sub")).count() >= 100,
        "{} drawn",
        top.len()
    );
    assert!(
        !top.iter().any(|n| n.starts_with("leaf")),
        "no leaf at the top"
    );
    assert!(
        top.len() < 1000,
        "only what is a pixel wide: {} drawn",
        top.len()
    );
    // Zoomed into sub0: its leaves, each a pixel wide now, from the page's data.
    p.js("const e = [...document.querySelectorAll('#calltree .fn')].find(e => e.getAttribute('aria-label').startsWith('sub0 ')); e.click(); return 0;");
    let zoomed = names(&p);
    let leaves = zoomed.iter().filter(|n| n.starts_with("leaf0_")).count();
    assert!(leaves >= 900, "{leaves} leaves of sub0 drawn");
    p.assert_quiet("the large tree");
}
