//! Arguments from Python, checked by hand so that a wrong type raises `ply.ArgumentError` (a
//! `ply.Error`) naming the argument, as the CLI would name its flag.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString};
use serde_json::Value;

use crate::errors::{spec_error, type_error};

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}

/// `None` for a missing argument or Python `None`.
fn present<'a, 'py>(obj: Option<&'a Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
    obj.filter(|o| !o.is_none())
}

pub fn text(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<String> {
    obj.cast::<PyString>()
        .map_err(|_| type_error(format!("{name} must be a str, not {}", type_name(obj))))?
        .extract::<String>()
}

/// A whole number ≥ 0 (`bool` refused: `True` is no count).
pub fn count(obj: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Option<u64>> {
    let Some(obj) = present(obj) else { return Ok(None) };
    if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
        return Err(type_error(format!("{name} must be an int, not {}", type_name(obj))));
    }
    obj.extract::<u64>()
        .map(Some)
        .map_err(|_| spec_error(format!("{name} must be a whole number ≥ 0, got {obj}")))
}

pub fn seat(obj: Option<&Bound<'_, PyAny>>, players: usize) -> PyResult<Option<usize>> {
    match count(obj, "seat")? {
        None => Ok(None),
        Some(s) if (s as usize) < players => Ok(Some(s as usize)),
        Some(s) => {
            Err(spec_error(format!("seat {s} does not exist: this game has seats 0 to {}", players - 1)))
        }
    }
}

fn option_value(value: &Bound<'_, PyAny>, key: &str) -> PyResult<String> {
    if value.is_instance_of::<PyBool>() {
        Ok(if value.is_truthy()? { "true" } else { "false" }.to_string())
    } else if value.is_instance_of::<PyInt>() || value.is_instance_of::<PyFloat>() {
        Ok(value.str()?.to_string())
    } else if value.is_instance_of::<PyString>() {
        text(value, key)
    } else {
        Err(type_error(format!("option {key} must be a str, int, float or bool, not {}", type_name(value))))
    }
}

/// Game options as the CLI's `-o key=value,...`: a string, a dict, keyword arguments, or both.
pub fn options(given: Option<&Bound<'_, PyAny>>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
    let mut parts = Vec::new();
    if let Some(given) = present(given) {
        if let Ok(dict) = given.cast::<PyDict>() {
            parts.extend(pairs(dict)?);
        } else {
            let text = text(given, "options").map_err(|_| {
                type_error(format!(
                    "options must be a str ('key=value,...') or a dict, not {}",
                    type_name(given)
                ))
            })?;
            if !text.trim().is_empty() {
                parts.push(text);
            }
        }
    }
    if let Some(kwargs) = kwargs {
        parts.extend(pairs(kwargs)?);
    }
    Ok(parts.join(","))
}

fn pairs(dict: &Bound<'_, PyDict>) -> PyResult<Vec<String>> {
    dict.iter()
        .map(|(k, v)| {
            let key = text(&k, "an option name")?;
            Ok(format!("{key}={}", option_value(&v, &key)?))
        })
        .collect()
}

/// A Python value (dict, list, str, number...) as JSON, through the `json` module.
pub fn json_value(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Value> {
    let py = obj.py();
    let text: String = py
        .import("json")?
        .call_method1("dumps", (obj,))
        .map_err(|_| {
            type_error(format!("{name} must be JSON-like (dict, list, str, number), not {}", type_name(obj)))
        })?
        .extract()?;
    serde_json::from_str(&text).map_err(|e| spec_error(format!("{name}: {e}")))
}

/// JSON as Python objects (dicts, lists...).
pub fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (value.to_string(),))
}
