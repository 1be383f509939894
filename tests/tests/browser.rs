//! The dashboard in headless Chromium, driven over WebDriver (chromedriver
//! and fantoccini): a coordinator with a token and a worker run a sweep of
//! every analysis job; the fleet page asks for the token and shows the
//! sweep reach `done`; the sweep page shows the playbook, the forest plot,
//! the danger map with one cell per measured point, the frontier and the
//! levers; the browser logs no error. Screenshots are saved under
//! `target/dashboard/` for a person to look at.
//!
//! Needs Debian's `chromium` and `chromium-driver`. Without them the test
//! skips with one line, so that `cargo test --workspace` passes on a machine
//! with a Rust toolchain alone; with `CI=true` (set by CI and by `.ci/run`,
//! which installs them) it fails instead, so CI never skips it silently.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder, Locator};
use pf1e_e2e::{Fixture, Proc, TIMEOUT, pf1e, start_coordinator, start_worker};
use serde_json::{Value, json};

const TOKEN: &str = "browser-s3cret";
/// The variable that makes a missing browser a failure (CI sets it to `true`).
const CI: &str = "CI";

/// Every analysis job and a grid, small enough for a debug build.
const SWEEP: &str = "name: dashboard\nseed: 5\nruns: 20\nparty: players\nshard_size: 10\nscenario:\n  map: ../maps/sample_arena.yaml\n  sides:\n    players: { zone: A, combatants: [../monsters/goblin.json, ../monsters/goblin.json, ../monsters/goblin.json] }\n    monsters: { zone: B, combatants: [../monsters/orc.json, ../monsters/orc.json] }\njobs:\n  - optimize: { max_total_runs: 1200, adversary: lowest_hp }\n  - danger_map: { fractions: [0.25, 0.5, 0.75, 1.0], criterion: p_any_death, threshold: 0.1, depth: 1 }\n  - frontier: { criterion: p_any_death, target: 0.1, min_fraction: 0.2, precision: 0.1 }\n  - sensitivity: { criterion: expected_hp_lost }\n  - grid: { hp: { players: [0.5, 1.0] } }\n";

/// The first of `names` found on the PATH.
/// A day of two fights for three goblins (a short rest between them) and a
/// plan that skips the second: 20 days in shards of 10.
const DAY: &str = "name: dashboard day\nseed: 3\nruns: 20\nshard_size: 10\nround_cap: 30\nparty:\n  combatants: [../monsters/goblin.json, ../monsters/goblin.json, ../monsters/goblin.json]\nsteps:\n  - encounter: { name: the orc, map: ../maps/sample_arena.yaml, combatants: [../monsters/orc.json] }\n  - short_rest: { spend: all }\n  - encounter: { name: the orcs, map: ../maps/sample_arena.yaml, combatants: [../monsters/orc.json, ../monsters/orc.json] }\nplans:\n  - { name: skip the orcs, skip: [the orcs] }\n";

/// A small design: three goblins, a pool of orcs and goblins.
const DESIGN: &str = "name: dashboard design\nseed: 3\nruns: 20\nparty: players\nshard_size: 10\nscenario:\n  map: ../maps/sample_arena.yaml\n  sides:\n    players: { zone: A, combatants: [../monsters/goblin.json, ../monsters/goblin.json, ../monsters/goblin.json] }\n    monsters: { zone: B }\njobs:\n  - design:\n      target: { p_some_pc_dies: [0.1, 0.6] }\n      pool: { monsters: [../monsters/orc.json, ../monsters/goblin.json] }\n      max_monsters: 3\n      candidates: 5\n      race_rounds: 1\n      refine: 1\n      plans: 1\n";

fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|n| std::env::split_paths(&path).map(|d| d.join(n)).find(|p| p.is_file()))
}

/// `target/dashboard/`, next to the test binaries.
fn screenshot_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable");
    let target = exe.ancestors().nth(3).expect("target/<profile>/deps/<test>").to_path_buf();
    let dir = target.join("dashboard");
    std::fs::create_dir_all(&dir).expect("screenshot directory");
    dir
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// chromedriver on a free loopback port, ready for sessions.
fn start_chromedriver(bin: &Path) -> (Proc, u16) {
    let port = free_port();
    let child = Command::new(bin)
        .arg(format!("--port={port}"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn chromedriver");
    let proc = Proc { child, name: "chromedriver".into() };
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(start.elapsed() < Duration::from_secs(30), "chromedriver did not listen on {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
    (proc, port)
}

/// The browser's console messages since the last call (chromedriver's log endpoint).
#[derive(Debug)]
struct BrowserLog;

impl WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }
    fn method_and_body(&self, _url: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(json!({ "type": "browser" }).to_string()))
    }
}

/// Console errors (level SEVERE) logged since the last call.
async fn console_errors(c: &Client) -> Vec<Value> {
    let log = c.issue_cmd(BrowserLog).await.expect("the browser log");
    log.as_array().cloned().unwrap_or_default().into_iter().filter(|e| e["level"] == "SEVERE").collect()
}

/// Evaluates `script` (which returns a value) until `ok` accepts it.
async fn wait_until(c: &Client, what: &str, script: &str, ok: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let v = c.execute(script, vec![]).await.expect("script runs");
        if ok(&v) {
            return v;
        }
        assert!(start.elapsed() < TIMEOUT, "timed out waiting for {what}; last value {v}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn count(c: &Client, css: &str) -> usize {
    c.find_all(Locator::Css(css)).await.expect("find_all").len()
}

async fn screenshot(c: &Client, name: &str, full_page: bool) -> PathBuf {
    if full_page {
        let h = c.execute("return document.documentElement.scrollHeight", vec![]).await.unwrap();
        c.set_window_size(1280, h.as_u64().unwrap_or(1600).clamp(600, 16000) as u32).await.unwrap();
    } else {
        c.set_window_size(1280, 900).await.unwrap();
    }
    let png = c.screenshot().await.expect("screenshot");
    let path = screenshot_dir().join(name);
    std::fs::write(&path, png).expect("write screenshot");
    path
}

#[test]
fn the_dashboard_shows_a_sweep_from_submission_to_its_charts_in_chromium() {
    let (Some(chromium), Some(driver)) = (
        on_path(&["chromium", "chromium-browser", "google-chrome"]),
        on_path(&["chromedriver", "chromium-driver"]),
    ) else {
        if std::env::var(CI).is_ok_and(|v| v == "true") {
            panic!(
                "the browser test needs chromium and chromedriver on the PATH when {CI}=true (Debian: apt-get install chromium chromium-driver; .ci/run installs them)"
            );
        }
        eprintln!(
            "SKIPPED the browser test: chromium or chromedriver is not on the PATH (apt-get install chromium chromium-driver; with {CI}=true this fails)"
        );
        return;
    };

    let fx = Fixture::new("browser", 10, 10);
    let sweep = fx.write_sweep("dashboard.yaml", SWEEP);
    let env = [("PF1E_TOKEN", TOKEN)];
    let c = start_coordinator(&fx.path("c.redb"), "127.0.0.1:0", &[], &env);
    let http = format!("http://{}", c.http.as_deref().unwrap());
    let mut submit = pf1e();
    submit.args(["ctl", "--coordinator", &c.url, "submit"]).arg(&sweep).env("PF1E_TOKEN", TOKEN);
    let out = pf1e_e2e::run(submit);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let id = String::from_utf8_lossy(&out.stdout).trim().lines().last().unwrap().to_string();

    let (_driver, port) = start_chromedriver(&driver);
    let profile = tempfile::tempdir().expect("a profile directory");
    let caps = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1",
                "--window-size=1280,900", "--lang=en-US",
                format!("--user-data-dir={}", profile.path().display()),
            ],
        },
        "goog:loggingPrefs": { "browser": "ALL" },
    });
    let caps = caps.as_object().cloned().unwrap();

    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let b = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("a chromium session");

        // The fleet page asks for the token before any call.
        b.goto(&format!("{http}/")).await.unwrap();
        wait_until(&b, "the token form", "return !document.getElementById('token-form').hidden", |v| v == true).await;
        b.find(Locator::Css("#token-input")).await.unwrap().send_keys(TOKEN).await.unwrap();
        b.find(Locator::Css("#token-form button")).await.unwrap().click().await.unwrap();
        let status = format!(
            "const td = document.querySelector('#sweeps tr[data-sweep-id=\"{id}\"] td.status'); return td ? td.textContent : null"
        );
        wait_until(&b, "the sweep listed as running", &status, |v| v == "running").await;
        assert_eq!(
            b.execute("return document.getElementById('conn').textContent", vec![]).await.unwrap(),
            "live"
        );

        // A worker joins; the page follows the sweep to its end.
        let _w = start_worker(&c.url, &["--threads", "2"], &env);
        wait_until(&b, "a worker listed", "return document.querySelectorAll('#workers tbody tr').length", |v| {
            v == 1
        })
        .await;
        wait_until(&b, "the sweep done", &status, |v| v == "done").await;
        let progress = b
            .execute(
                &format!("const p = document.querySelector('#sweeps tr[data-sweep-id=\"{id}\"] progress'); return [p.value, p.max]"),
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(progress[0], progress[1], "a done sweep's bar is full: {progress}");
        assert_eq!(count(&b, "#workers tbody tr").await, 1);
        eprintln!("screenshot: {}", screenshot(&b, "fleet.png", false).await.display());
        let errors = console_errors(&b).await;
        assert!(errors.is_empty(), "console errors on the fleet page: {errors:?}");

        // The sweep page, against the results the API serves.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let api = reqwest::Client::new();
        let doc: Value = serde_json::from_str(
            &api.get(format!("{http}/api/sweeps/{id}/results"))
                .bearer_auth(TOKEN)
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap(),
        )
        .unwrap();
        let jobs = doc["results"]["jobs"].as_array().unwrap();
        let playbook = jobs[0]["result"]["playbook"].as_array().unwrap();
        let points: usize = jobs[1]["result"]["layers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["points"].as_array().unwrap().len())
            .sum();
        let probes = jobs[2]["result"]["probes"].as_array().unwrap().len();
        let levers = jobs[3]["result"]["levers"].as_array().unwrap().len();

        b.goto(&format!("{http}/sweeps/{id}")).await.unwrap();
        wait_until(&b, "the final results", "return !document.getElementById('download-md').disabled", |v| {
            v == true
        })
        .await;
        assert_eq!(
            b.execute("return document.getElementById('sweep-status').textContent", vec![]).await.unwrap(),
            "done"
        );
        let kinds = b
            .execute("return [...document.querySelectorAll('#jobs section.job')].map(s => s.dataset.kind)", vec![])
            .await
            .unwrap();
        assert_eq!(kinds, json!(["optimize", "danger_map", "frontier", "sensitivity", "grid"]));
        // The playbook: every entry in the table, in rank order; the forest plot's rows.
        // One row per group of strategies that played the same battles (`same_as`).
        let groups = playbook.iter().filter(|e| e["same_as"].is_null()).count();
        assert_eq!(count(&b, "section.job[data-kind=optimize] table.playbook tbody tr").await, groups);
        let first = b
            .execute(
                "return document.querySelector('section.job[data-kind=optimize] table.playbook tbody tr td:nth-child(2)').textContent",
                vec![],
            )
            .await
            .unwrap();
        let lead = playbook[0]["strategy"].as_str().unwrap();
        assert!(first.as_str().unwrap().split("; ").next() == Some(lead), "{first} against {lead}");
        assert_eq!(count(&b, "svg.forest g.forest-row").await, groups.min(25));
        // Lever importance: one bar per lever of the grid, and the interactions.
        let grid_levers = jobs[0]["result"]["importance"]["levers"].as_array().map_or(0, Vec::len);
        let bars = if grid_levers > 0 { grid_levers + 1 } else { 0 };
        assert_eq!(count(&b, "svg.importance g.importance-row").await, bars);
        // The danger map: one cell per measured point, a legend, values on hover.
        assert!(points >= 16, "the 4×4 grid and its refinement: {points}");
        assert_eq!(count(&b, "svg.heatmap rect.cell").await, points);
        assert_eq!(count(&b, "svg.heatmap g.legend").await, 1);
        let hover = b
            .execute("return document.querySelector('svg.heatmap rect.cell title').textContent", vec![])
            .await
            .unwrap();
        assert!(hover.as_str().unwrap().contains("P(a PC dies) = "), "{hover}");
        // The outcome words of every report, never the engine's names or the old misleading ones.
        let page = b.execute("return document.querySelector('main').innerText", vec![]).await.unwrap();
        let page = page.as_str().unwrap();
        for word in ["P(no PC dies)", "P(win)", "P(everyone down)", "the default play (default)", "**Verdict.** "] {
            assert!(page.contains(word), "{word:?} missing from the sweep page:\n{page}");
        }
        for word in ["P(survive)", "P(TPK)", "E[HP lost]", "p_any_death", "expected_hp_lost"] {
            assert!(!page.contains(word), "{word:?} on the sweep page:\n{page}");
        }
        // The report is the coordinator's report.md (pf1e-render's), in the browser's language.
        let served = api
            .get(format!("{http}/api/sweeps/{id}/report.md?lang=en"))
            .bearer_auth(TOKEN)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let shown = b.execute("return document.getElementById('report-text').textContent", vec![]).await.unwrap();
        assert_eq!(shown.as_str(), Some(served.as_str()), "the page shows the served report.md");
        assert!(served.contains("**Verdict.** "), "{served}");
        assert_eq!(count(&b, "svg.frontier circle.probe").await, probes);
        assert_eq!(count(&b, "svg.sensitivity g.lever").await, levers);
        assert_eq!(count(&b, "section.job[data-kind=grid] table.cells tbody tr").await, 2);
        eprintln!("screenshot: {}", screenshot(&b, "sweep.png", true).await.display());
        eprintln!("screenshot: {}", screenshot(&b, "sweep-top.png", false).await.display());
        b.execute("document.querySelector('section.job[data-kind=danger_map]').scrollIntoView()", vec![]).await.unwrap();
        eprintln!("screenshot: {}", screenshot(&b, "sweep-danger-map.png", false).await.display());
        let errors = console_errors(&b).await;
        assert!(errors.is_empty(), "console errors on the sweep page: {errors:?}");

        // An adventuring day: its own page section, the funnel and the tables.
        let day = fx.write_sweep("day.yaml", DAY);
        let mut submit = pf1e();
        submit.args(["ctl", "--coordinator", &c.url, "submit"]).arg(&day).env("PF1E_TOKEN", TOKEN);
        let out = pf1e_e2e::run(submit);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let day_id = String::from_utf8_lossy(&out.stdout).trim().lines().last().unwrap().to_string();
        b.goto(&format!("{http}/sweeps/{day_id}")).await.unwrap();
        wait_until(&b, "the day's results", "return !document.getElementById('download-md').disabled", |v| {
            v == true
        })
        .await;
        let kinds = b
            .execute("return [...document.querySelectorAll('#jobs section.job')].map(s => s.dataset.kind)", vec![])
            .await
            .unwrap();
        assert_eq!(kinds, json!(["day"]));
        // Two fights and the completed days: three funnel bars; a row per fight, per member, per plan.
        assert_eq!(count(&b, "svg.funnel g.funnel-row").await, 3);
        assert_eq!(count(&b, "section.job[data-kind=day] table.fights tbody tr").await, 2);
        assert_eq!(count(&b, "section.job[data-kind=day] table.members tbody tr").await, 3);
        assert_eq!(count(&b, "section.job[data-kind=day] table.plans tbody tr").await, 2);
        let page = b.execute("return document.querySelector('main').innerText", vec![]).await.unwrap();
        let page = page.as_str().unwrap();
        for word in ["the party completes the day in", "the orc", "the orcs", "as written", "skip the orcs"] {
            assert!(page.contains(word), "{word:?} missing from the day's page:\n{page}");
        }
        assert!(!page.contains("Unknown job kind"), "{page}");
        eprintln!("screenshot: {}", screenshot(&b, "sweep-day.png", true).await.display());
        let errors = console_errors(&b).await;
        assert!(errors.is_empty(), "console errors on the day's page: {errors:?}");

        // An encounter design: the proposals with their party plan and the command of their battle worth reading.
        let design = fx.write_sweep("design.yaml", DESIGN);
        let mut submit = pf1e();
        submit.args(["ctl", "--coordinator", &c.url, "submit"]).arg(&design).env("PF1E_TOKEN", TOKEN);
        let out = pf1e_e2e::run(submit);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let design_id = String::from_utf8_lossy(&out.stdout).trim().lines().last().unwrap().to_string();
        b.goto(&format!("{http}/sweeps/{design_id}")).await.unwrap();
        wait_until(&b, "the design's results", "return !document.getElementById('download-md').disabled", |v| {
            v == true
        })
        .await;
        let proposals = count(&b, "section.job[data-kind=design] ul.proposals li").await;
        let page = b.execute("return document.querySelector('main').innerText", vec![]).await.unwrap();
        let page = page.as_str().unwrap().to_string();
        assert!(proposals >= 1, "at least one proposal:\n{page}");
        assert_eq!(count(&b, "section.job[data-kind=design] ul.proposals li .plan").await, 1, "plans: 1");
        assert_eq!(count(&b, "section.job[data-kind=design] ul.proposals li code.replay").await, proposals);
        assert!(count(&b, "section.job[data-kind=design] table.calibration tbody tr").await >= 1, "{page}");
        for word in ["best party plan: ", "battle worth reading: run ", "pf1e sim --map ../maps/sample_arena.yaml"] {
            assert!(page.contains(word), "{word:?} missing from the design's page:\n{page}");
        }
        let errors = console_errors(&b).await;
        assert!(errors.is_empty(), "console errors on the design's page: {errors:?}");
        // The log really carries the page's errors (the checks above are not vacuous).
        b.execute("console.error('pf1e log probe')", vec![]).await.unwrap();
        let probe = console_errors(&b).await;
        assert!(probe.iter().any(|e| e["message"].as_str().is_some_and(|m| m.contains("pf1e log probe"))), "{probe:?}");
        b.close().await.unwrap();
    });
}
