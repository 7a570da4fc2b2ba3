use thiserror::Error;

/// Everything that can go wrong when text from outside (a command line, a protocol line, a file,
/// an HTTP request) meets the model. Messages say what was wrong and, where it helps, what would
/// have been right.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    /// Text that is not a well-formed action, state or value.
    #[error("{0}")]
    Notation(String),
    /// A well-formed action that the rules do not allow here, or a request the position does not
    /// allow (asking for a move when the game is over, say).
    #[error("{0}")]
    Illegal(String),
    /// A bad agent spec, game option or parameter.
    #[error("{0}")]
    Spec(String),
}

impl Error {
    pub fn notation(message: impl Into<String>) -> Self {
        Error::Notation(message.into())
    }
    pub fn illegal(message: impl Into<String>) -> Self {
        Error::Illegal(message.into())
    }
    pub fn spec(message: impl Into<String>) -> Self {
        Error::Spec(message.into())
    }

    /// The same error with `context` put before its message: `action 3 'h9': ...`.
    pub fn context(self, context: impl std::fmt::Display) -> Self {
        match self {
            Error::Notation(m) => Error::Notation(format!("{context}: {m}")),
            Error::Illegal(m) => Error::Illegal(format!("{context}: {m}")),
            Error::Spec(m) => Error::Spec(format!("{context}: {m}")),
        }
    }
}
