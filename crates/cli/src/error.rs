//! The CLI's one error type and its exit codes: 2 for bad usage or bad data,
//! 1 when the environment fails. Every failure is reported as ONE line on
//! stderr, `error: <file>: <place>: <problem>`.

use pf1e_coordinator::http::HttpError;
use pf1e_coordinator::scheduler::SchedError;
use pf1e_coordinator::service::ServeError;
use pf1e_coordinator::store::StoreError;
use pf1e_coordinator::sweep::SweepError;
use pf1e_wire::auth::TokenError;
use pf1e_wire::client::ConnectError;
use pf1e_wire::error::{WireError, causes};
use pf1e_worker::WorkerError;

/// Why a subcommand stopped: the one error type of the CLI. Its kind is
/// the exit status; its message is one line that says what is wrong and,
/// where the library knows, what to do.
#[derive(Debug)]
pub enum CliError {
    /// The command line or the data is wrong (exit 2): a file, its place and
    /// the problem, or a request the coordinator refused.
    Input(String),
    /// The environment failed (exit 1): network, disk, thread pool, a
    /// coordinator that is away or answers something unreadable.
    Environment(String),
    /// Stop quietly and successfully (exit 0): the reader of stdout has gone
    /// (`pf1e run … | head`), as in ripgrep.
    Quiet,
}

/// Result of a subcommand.
pub type CliResult = Result<(), CliError>;

impl CliError {
    /// A usage or data error; `message` names the file, the place and the problem.
    pub fn input(message: impl std::fmt::Display) -> Self {
        Self::Input(message.to_string())
    }

    /// An environment error.
    pub fn environment(message: impl std::fmt::Display) -> Self {
        Self::Environment(message.to_string())
    }

    /// The exit status: 2 for usage and data errors, 1 for the environment.
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Input(_) => 2,
            Self::Environment(_) => 1,
            Self::Quiet => 0,
        }
    }

    /// A gRPC status from the coordinator: a refused request is a usage or
    /// data error, anything else the environment's. The message keeps the
    /// status's causes (a bare "transport error" says nothing).
    pub fn from_status(s: &tonic::Status) -> Self {
        use tonic::Code;
        let mut message = s.message().to_string();
        if let Some(source) = std::error::Error::source(s) {
            let why = causes(source);
            if !why.is_empty() && !message.contains(&why) {
                message = if message.is_empty() { why } else { format!("{message}: {why}") };
            }
        }
        match s.code() {
            Code::InvalidArgument
            | Code::NotFound
            | Code::Unauthenticated
            | Code::PermissionDenied
            | Code::FailedPrecondition => Self::input(message),
            Code::Unavailable => Self::environment(format!(
                "the coordinator is unavailable: {message} (is it running and reachable? check --coordinator or PF1E_COORDINATOR)"
            )),
            _ => Self::environment(format!("coordinator: {message}")),
        }
    }
}

impl From<tonic::Status> for CliError {
    fn from(s: tonic::Status) -> Self {
        Self::from_status(&s)
    }
}

impl From<SweepError> for CliError {
    fn from(e: SweepError) -> Self {
        Self::input(e)
    }
}

impl From<StoreError> for CliError {
    fn from(e: StoreError) -> Self {
        Self::environment(causes(&e))
    }
}

impl From<SchedError> for CliError {
    fn from(e: SchedError) -> Self {
        match e {
            SchedError::Store(e) => e.into(),
            SchedError::Invalid(e) => e.into(),
            other => Self::input(other),
        }
    }
}

impl From<ServeError> for CliError {
    fn from(e: ServeError) -> Self {
        match e {
            ServeError::Sched(e) => e.into(),
            other => Self::environment(other),
        }
    }
}

impl From<HttpError> for CliError {
    fn from(e: HttpError) -> Self {
        match e {
            HttpError::Tls(_) => Self::input(causes(&e)),
            HttpError::Listener(_) => Self::environment(causes(&e)),
        }
    }
}

impl From<ConnectError> for CliError {
    fn from(e: ConnectError) -> Self {
        match e {
            ConnectError::Url { .. }
            | ConnectError::Tls { .. }
            | ConnectError::NoCoordinator
            | ConnectError::Malformed { .. }
            | ConnectError::Token(_)
            | ConnectError::CaFile { .. } => Self::input(e),
            ConnectError::Unreachable { .. } => Self::environment(e),
        }
    }
}

impl From<TokenError> for CliError {
    fn from(e: TokenError) -> Self {
        Self::input(e)
    }
}

impl From<WireError> for CliError {
    fn from(e: WireError) -> Self {
        Self::environment(format!(
            "the coordinator sent a message this pf1e cannot read ({e}): run the same pf1e version on both"
        ))
    }
}

impl From<WorkerError> for CliError {
    fn from(e: WorkerError) -> Self {
        match e {
            WorkerError::Refused(s) => Self::input(s.message()),
            other => Self::environment(other),
        }
    }
}

/// Collapses a message onto one line so that a caller can rely on it.
pub fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Clap's error as one line: its message, its tips (a similar subcommand or
/// flag exists, how to pass a value that starts with `-`) and the usage of
/// the command, which names its required options.
pub fn clap_line(err: &clap::Error) -> String {
    let rendered = err.render().to_string();
    let mut paragraphs = rendered.split("\n\n");
    let first = one_line(paragraphs.next().unwrap_or_default());
    let text = first.strip_prefix("error: ").unwrap_or(&first).to_string();
    let mut tips = Vec::new();
    let mut usage = None;
    for p in paragraphs {
        for line in p.lines().map(str::trim) {
            if let Some(tip) = line.strip_prefix("tip: ") {
                tips.push(tip.to_string());
            } else if let Some(u) = line.strip_prefix("Usage: ") {
                usage = Some(one_line(u));
            }
        }
    }
    let mut line = format!("error: command line: {text}");
    if !tips.is_empty() {
        line += &format!(" ({})", tips.join("; "));
    }
    match usage {
        Some(u) => line += &format!("; usage: {u} (see --help)"),
        None => line += " (see --help)",
    }
    line
}
