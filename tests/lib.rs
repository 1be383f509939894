//! End-to-end test helpers: the real `pf1e` binary, child processes that
//! die with the test, sweep fixtures. The tests live in `tests/`.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Longest any single command or wait may take.
pub const TIMEOUT: Duration = Duration::from_secs(240);

/// The `pf1e` binary next to the test executable (target/<profile>/pf1e).
pub fn pf1e_bin() -> PathBuf {
    sibling_bin("pf1e", "pf1e-cli")
}

/// A binary of the workspace next to the test executable, built by `package`.
fn sibling_bin(name: &str, package: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("current test executable");
    let dir = exe.parent().and_then(Path::parent).expect("target/<profile>/deps/..");
    let bin = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        bin.exists(),
        "the {name} binary is missing at {}: run `cargo build -p {package}` (or `cargo test --workspace`) first",
        bin.display()
    );
    bin
}

/// A child process killed (and reaped) when dropped.
pub struct Proc {
    /// The process.
    pub child: Child,
    /// What it is, for messages.
    pub name: String,
}

impl Proc {
    /// Kills the process with SIGKILL and reaps it.
    pub fn kill9(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Sends SIGTERM and waits for the exit status (bounded).
    pub fn terminate(&mut self) -> Option<std::process::ExitStatus> {
        let _ = Command::new("kill").arg("-TERM").arg(self.child.id().to_string()).status();
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(30) {
            if let Ok(Some(s)) = self.child.try_wait() {
                return Some(s);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.kill9();
    }
}

/// A command of the real binary with a clean environment for the service variables.
pub fn pf1e() -> Command {
    clean(Command::new(pf1e_bin()))
}

/// A command of the real binary run inside network namespace `netns`
/// (`ip netns exec`), with the same clean environment as [`pf1e`].
pub fn pf1e_in_netns(netns: &str) -> Command {
    let mut c = Command::new("ip");
    c.args(["netns", "exec", netns]).arg(pf1e_bin());
    clean(c)
}

/// `c` without the service variables of the caller's environment.
fn clean(mut c: Command) -> Command {
    c.env_remove("PF1E_TOKEN")
        .env_remove("PF1E_WORKER_TOKEN")
        .env_remove("PF1E_COORDINATOR")
        .env("RUST_LOG", "warn")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "C.UTF-8");
    c
}

/// Runs a command to its end within [`TIMEOUT`].
pub fn run(mut cmd: Command) -> Output {
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn pf1e");
    // Drain both pipes while waiting: a child that fills a pipe buffer would block forever.
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn std::io::Read + Send>));
    let err = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn std::io::Read + Send>));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            let stderr = err.join().unwrap_or_default();
            panic!("command timed out: {cmd:?}\nstderr: {}", String::from_utf8_lossy(&stderr));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output { status, stdout: out.join().expect("stdout reader"), stderr: err.join().expect("stderr reader") }
}

/// A running coordinator.
pub struct Coordinator {
    /// The process.
    pub proc: Proc,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// The metrics address, when asked for.
    pub metrics: Option<String>,
    /// The HTTP address (dashboard, API, metrics, probes), unless `--no-http`.
    pub http: Option<String>,
}

/// Starts a coordinator listening on `listen` (port 0 picks one; the bound address is read from its stdout).
pub fn start_coordinator(db: &Path, listen: &str, extra: &[&str], env: &[(&str, &str)]) -> Coordinator {
    start_coordinator_in(pf1e(), db, listen, extra, env)
}

/// [`start_coordinator`] with at most `nofile` open file descriptors (a
/// small limit as a real host has, through the shell's `ulimit -n`).
pub fn start_coordinator_limited(db: &Path, nofile: u32, extra: &[&str]) -> Coordinator {
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(format!("ulimit -n {nofile} && exec \"$0\" \"$@\"")).arg(pf1e_bin());
    cmd.env_remove("PF1E_TOKEN")
        .env_remove("PF1E_WORKER_TOKEN")
        .env_remove("PF1E_COORDINATOR")
        .env("RUST_LOG", "warn")
        .env("LANG", "C.UTF-8");
    start_coordinator_in(cmd, db, "127.0.0.1:0", extra, &[])
}

/// [`start_coordinator`] with `cmd` as the `pf1e` command (e.g. [`pf1e_in_netns`]).
pub fn start_coordinator_in(
    mut cmd: Command,
    db: &Path,
    listen: &str,
    extra: &[&str],
    env: &[(&str, &str)],
) -> Coordinator {
    cmd.args(["coordinator", "--listen", listen, "--db"]).arg(db).args(extra);
    // A fixed gRPC port (a restart on the same address) would put HTTP on the
    // next port, which another test may hold: take a free one instead.
    if !listen.ends_with(":0") && !extra.contains(&"--http-listen") && !extra.contains(&"--no-http") {
        cmd.args(["--http-listen", "127.0.0.1:0"]);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::inherit());
    let mut child = cmd.spawn().expect("spawn coordinator");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let proc = Proc { child, name: "coordinator".into() };
    let line = rx.recv_timeout(Duration::from_secs(60)).expect("the coordinator printed no address");
    let addr =
        line.strip_prefix("listening on ").unwrap_or_else(|| panic!("unexpected line {line:?}")).to_string();
    let next = |prefix: &str| {
        let line = rx.recv_timeout(Duration::from_secs(10)).unwrap_or_else(|_| panic!("no {prefix:?} line"));
        let rest = line.strip_prefix(prefix).unwrap_or_else(|| panic!("unexpected line {line:?}"));
        rest.split_whitespace().next().unwrap_or_default().to_string()
    };
    let metrics = extra.contains(&"--metrics-listen").then(|| next("metrics on "));
    let http = (!extra.contains(&"--no-http")).then(|| next("http on "));
    // Keep draining stdout so the coordinator never blocks on a full pipe.
    std::thread::spawn(move || while rx.recv().is_ok() {});
    Coordinator { proc, url: format!("http://{addr}"), addr, metrics, http }
}

/// A worker of `url`.
pub fn start_worker(url: &str, extra: &[&str], env: &[(&str, &str)]) -> Proc {
    start_worker_in(pf1e(), url, extra, env)
}

/// [`start_worker`] with `cmd` as the `pf1e` command (e.g. [`pf1e_in_netns`]).
pub fn start_worker_in(mut cmd: Command, url: &str, extra: &[&str], env: &[(&str, &str)]) -> Proc {
    cmd.args(["worker", "--coordinator", url]).args(extra);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::inherit());
    Proc { child: cmd.spawn().expect("spawn worker"), name: "worker".into() }
}

/// The standalone `pf1e-worker` binary (the worker image's entry point),
/// connected to `url`.
pub fn start_worker_bin(url: &str, extra: &[&str]) -> Proc {
    let mut cmd = Command::new(sibling_bin("pf1e-worker", "pf1e-worker-bin"));
    cmd.env_remove("PF1E_TOKEN").env_remove("PF1E_COORDINATOR").env("RUST_LOG", "warn");
    cmd.args(["--coordinator", url]).args(extra);
    cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::inherit());
    Proc { child: cmd.spawn().expect("spawn pf1e-worker"), name: "pf1e-worker".into() }
}

/// `pf1e ctl --coordinator URL ARGS...` to its end.
pub fn ctl(url: &str, args: &[&str]) -> Output {
    let mut cmd = pf1e();
    cmd.args(["ctl", "--coordinator", url]).args(args);
    run(cmd)
}

/// The JSON document a command printed.
pub fn json_of(out: &Output) -> serde_json::Value {
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "command failed ({}): {}\n{}",
        out.status,
        text,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// Asserts a refusal: exit status 2 and one stderr line mentioning every
/// one of `expect`.
pub fn refused(out: &Output, expect: &[&str]) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "expected exit 2, got {}: {stderr}", out.status);
    assert_eq!(stderr.trim().lines().count(), 1, "expected one stderr line: {stderr:?}");
    for e in expect {
        assert!(stderr.contains(e), "{stderr:?} does not mention {e:?}");
    }
}

/// `ctl status ID --json`.
pub fn status(url: &str, id: &str) -> serde_json::Value {
    json_of(&ctl(url, &["status", id, "--json"]))
}

/// Polls `ctl status` until `pred` holds (bounded by [`TIMEOUT`]).
pub fn wait_for(
    url: &str,
    id: &str,
    what: &str,
    pred: impl Fn(&serde_json::Value) -> bool,
) -> serde_json::Value {
    let start = Instant::now();
    loop {
        let s = status(url, id);
        if pred(&s) {
            return s;
        }
        assert!(start.elapsed() < TIMEOUT, "timed out waiting for {what}: {s}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A directory with a small sweep over the sample arena and its data files.
pub struct Fixture {
    /// The temporary directory.
    pub dir: tempfile::TempDir,
}

/// The repository's data directory.
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data")
}

impl Fixture {
    /// A fixture whose sweep plays `runs` runs per cell in shards of `shard_size`,
    /// two cells (players at half and full HP), one goblin against one orc.
    pub fn new(tag: &str, runs: u32, shard_size: u32) -> Self {
        let dir = tempfile::Builder::new().prefix(&format!("pf1e-e2e-{tag}-")).tempdir().expect("temp dir");
        for sub in ["maps", "monsters", "sweeps"] {
            std::fs::create_dir_all(dir.path().join(sub)).expect("mkdir");
        }
        for f in ["maps/sample_arena.yaml", "monsters/goblin.json", "monsters/orc.json"] {
            std::fs::copy(data_dir().join(f), dir.path().join(f)).expect("copy data file");
        }
        let f = Fixture { dir };
        f.write_sweep("sweep.yaml", &Self::sweep_text(runs, shard_size));
        f
    }

    /// The text of the fixture sweep.
    pub fn sweep_text(runs: u32, shard_size: u32) -> String {
        format!(
            "name: e2e\nseed: 11\nruns: {runs}\nparty: players\nshard_size: {shard_size}\nscenario:\n  map: ../maps/sample_arena.yaml\n  sides:\n    players: {{ zone: A, combatants: [../monsters/goblin.json] }}\n    monsters: {{ zone: B, combatants: [../monsters/orc.json] }}\njobs:\n  - grid: {{ hp: {{ players: [0.5, 1.0] }} }}\n"
        )
    }

    /// Writes a sweep file into `sweeps/` and returns its path.
    pub fn write_sweep(&self, name: &str, text: &str) -> PathBuf {
        let p = self.dir.path().join("sweeps").join(name);
        std::fs::write(&p, text).expect("write sweep");
        p
    }

    /// The fixture sweep's path.
    pub fn sweep(&self) -> PathBuf {
        self.dir.path().join("sweeps/sweep.yaml")
    }

    /// A path inside the fixture.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// The `results` member of `pf1e run SWEEP --json --no-cache`.
    pub fn embedded_results(&self) -> serde_json::Value {
        let mut cmd = pf1e();
        cmd.arg("run").arg(self.sweep()).args(["--json", "--no-cache", "-q"]);
        json_of(&run(cmd))["results"].clone()
    }
}
