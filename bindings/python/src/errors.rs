//! Ply's errors as Python exceptions. The classes live in `ply/errors.py` (so that
//! `ArgumentError` can be both a `ply.Error` and a `TypeError`); this module raises them.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

fn raise(class: &str, message: String) -> PyErr {
    Python::attach(|py| {
        let module = ERRORS.get_or_try_init(py, || py.import("ply.errors").map(Bound::unbind));
        match module.and_then(|m| m.bind(py).getattr(class)) {
            Ok(class) => match class.cast_into::<PyType>() {
                Ok(class) => PyErr::from_type(class, message),
                Err(e) => PyErr::from(e),
            },
            Err(e) => e,
        }
    })
}

/// The Python exception for an error of the model: the CLI's message, a class by kind.
pub fn to_py(error: ply_core::Error) -> PyErr {
    match error {
        ply_core::Error::Notation(m) => raise("NotationError", m),
        ply_core::Error::Illegal(m) => raise("IllegalMoveError", m),
        ply_core::Error::Spec(m) => raise("SpecError", m),
    }
}

/// A bad argument value that is not the model's to judge (a negative count, say).
pub fn spec_error(message: impl Into<String>) -> PyErr {
    raise("SpecError", message.into())
}

/// An argument of the wrong Python type.
pub fn type_error(message: impl Into<String>) -> PyErr {
    raise("ArgumentError", message.into())
}

/// Something that should not happen (a panic in Rust): reported, never a crash.
pub fn internal_error(message: impl Into<String>) -> PyErr {
    raise("Error", message.into())
}

pub trait IntoPy<T> {
    fn py_err(self) -> PyResult<T>;
}

impl<T> IntoPy<T> for Result<T, ply_core::Error> {
    fn py_err(self) -> PyResult<T> {
        self.map_err(to_py)
    }
}
