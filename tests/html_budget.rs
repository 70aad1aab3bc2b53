//! The page's size has bounds in bands and in runs (issue 27): a page's table lists at
//! most 5,000 bands (the biggest, and every band drawn), the others summed in one row;
//! a page of many runs shares what two pages of their own would carry. Whatever is left
//! out is said: a warning on stderr, and a note on the page (which the browser shows).
//!
//! The page in Chromium needs `chromium` and `chromedriver`; the rest runs without.

mod support;

use support::html_page::*;
use support::{Cmd, TempDir};

/// A profile of `bands` bands over three samples, each band a value of its own.
fn wide_profile(bands: usize) -> String {
    let mut hp = String::from(
        "JOB \"wide\"\nDATE \"today\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n",
    );
    for s in 0..3 {
        hp.push_str(&format!("BEGIN_SAMPLE {s}.0\n"));
        for b in 0..bands {
            hp.push_str(&format!(
                "b{b:05}/main/Main.CAF\t{}\n",
                8 + (b * 37) % 997 * 8
            ));
        }
        hp.push_str(&format!("END_SAMPLE {s}.0\n"));
    }
    hp
}

#[test]
fn a_table_of_twenty_thousand_bands_lists_five_thousand_and_says_so() {
    let dir = TempDir::new("html-budget-bands");
    dir.write("wide.hp", wide_profile(20_000).as_bytes());
    let ran = Cmd::hp2ps()
        .args(["-o", "wide.html", "wide.hp"])
        .current_dir(dir.path())
        .run();
    assert!(ran.status.success(), "{}", ran.describe());
    let stderr = String::from_utf8_lossy(&ran.stderr);
    assert!(
        stderr.contains("wide.hp: the page's table lists the 5,000 biggest of the 20,000 bands"),
        "a warning: {stderr}"
    );
    let page = std::fs::read(dir.join("wide.html")).unwrap();
    // 2.3 MB when every band was listed.
    assert!(page.len() < 1_000_000, "{} bytes", page.len());
    let data = data_of(&page);
    let run = &data["runs"][0];
    let names = run["table"]["name"].as_array().unwrap();
    assert_eq!(names.len(), 5000);
    assert_eq!(run["tableLeftOut"]["bands"], 15_000);
    // Every band drawn is listed, and the biggest of the others: none left out is bigger.
    let listed: std::collections::HashSet<&str> =
        names.iter().map(|n| n.as_str().unwrap()).collect();
    for b in run["bands"].as_array().unwrap() {
        let name = b["name"].as_str().unwrap();
        assert!(name == "OTHER" || listed.contains(name), "{name} listed");
    }
    let peaks: Vec<f64> = serde_json::from_value(run["table"]["peak"].clone()).unwrap();
    let least = peaks.iter().fold(f64::INFINITY, |m, &p| m.min(p));
    assert!(
        run["tableLeftOut"]["peak"].as_f64().unwrap() <= least + 8.0 * 997.0,
        "the biggest listed"
    );
    let notes = run["notes"].as_array().unwrap();
    assert_eq!(notes.len(), 1, "the page says so too");

    // In the browser: the note in the header, the summed row at the table's end.
    let Some(browser) = browser() else {
        return;
    };
    let p = open_offline(&browser, &dir.join("wide.html"));
    let shown = p.js(
        "document.querySelector('.more-rows').click(); const rows = document.querySelectorAll('#bands tbody tr'); \
         return [document.querySelector('.run-head .warning').textContent, rows.length, rows[rows.length - 1].textContent];",
    );
    assert!(
        shown[0].as_str().unwrap().contains("5,000 biggest"),
        "{shown}"
    );
    assert_eq!(shown[1], 5001, "the listed bands and one row of the others");
    assert!(
        shown[2].as_str().unwrap().contains("15,000 smaller bands"),
        "{shown}"
    );
    p.assert_quiet("a wide profile");
}

#[test]
fn a_page_of_twelve_runs_holds_what_two_pages_would() {
    let dir = TempDir::new("html-budget-runs");
    // 11,205 samples of 21 bands: a page of its own is 2.7 MB.
    dir.write("run.hp", &large("longrun-O1-hc-i0.0001.hp.gz"));
    let one = Cmd::hp2ps()
        .args(["-o", "one.html", "run.hp"])
        .current_dir(dir.path())
        .run();
    assert!(one.status.success(), "{}", one.describe());
    let single = std::fs::metadata(dir.join("one.html")).unwrap().len();
    let mut args = vec!["-o".to_string(), "all.html".to_string()];
    for i in 0..12 {
        let name = format!("run{i}.hp");
        std::fs::copy(dir.join("run.hp"), dir.join(&name)).unwrap();
        args.push(name);
    }
    let ran = Cmd::hp2ps().args(&args).current_dir(dir.path()).run();
    assert!(ran.status.success(), "{}", ran.describe());
    let all = std::fs::metadata(dir.join("all.html")).unwrap().len();
    // 31.7 MB when each run carried what a page of its own does; the budget of two
    // pages is twice the 400 MB profile's 6 MB.
    assert!(
        all <= 12_000_000 && all < 4 * single,
        "12 runs: {all} bytes, one: {single}"
    );
    let stderr = String::from_utf8_lossy(&ran.stderr);
    assert!(
        stderr.contains("run11.hp: 12 runs in one page share the size of two pages"),
        "a warning: {stderr}"
    );
    let data = data_of(&std::fs::read(dir.join("all.html")).unwrap());
    for run in data["runs"].as_array().unwrap() {
        assert_eq!(
            run["notes"].as_array().unwrap().len(),
            1,
            "each run's chart says it"
        );
        assert!(
            run["times"].as_array().unwrap().len() < 2000,
            "fewer samples drawn"
        );
    }
}
