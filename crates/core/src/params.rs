//! Named parameters, as in agent specs (`mcts:iters=2000,c=1.2`) and game options
//! (`players=3`): declared with defaults and help, parsed from `key=value` lists, read typed.

use std::collections::BTreeMap;
use std::str::FromStr;

use crate::error::Error;
use crate::resource::Resource;

/// A declared parameter: its name, default (as text), a one-line description, and what its value
/// costs the machine, if anything (memory, threads, a file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamInfo {
    pub name: &'static str,
    pub default: String,
    pub help: &'static str,
    pub resource: Option<Resource>,
}

impl ParamInfo {
    pub fn new(name: &'static str, default: impl ToString, help: &'static str) -> Self {
        ParamInfo { name, default: default.to_string(), help, resource: None }
    }

    /// Declares what the value costs, so that a server can cap specs from untrusted clients
    /// ([`crate::resource::check_caps`]).
    pub fn costs(mut self, resource: Resource) -> Self {
        self.resource = Some(resource);
        self
    }
}

/// Parameter values given by a user, checked against the declared [`ParamInfo`]s, falling back
/// to the declared defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Params {
    /// Whose parameters these are, for error messages ("mcts", "game connect4").
    owner: String,
    values: BTreeMap<String, String>,
    declared: Vec<ParamInfo>,
}

impl Params {
    /// Parses `key=value,key=value`. A piece without `=` continues the previous value, so lists
    /// can be written naturally: `weights=1,2.5,3,c=2` sets weights to `1,2.5,3`.
    pub fn parse_list(text: &str) -> Result<Vec<(String, String)>, Error> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        for piece in text.split(',').map(str::trim) {
            if piece.is_empty() {
                continue;
            }
            match piece.split_once('=') {
                Some((key, value)) => {
                    let key = key.trim();
                    if key.is_empty() {
                        return Err(Error::spec(format!("'{piece}' has no parameter name before '='")));
                    }
                    pairs.push((key.to_string(), value.trim().to_string()));
                }
                None => match pairs.last_mut() {
                    Some((_, value)) => {
                        value.push(',');
                        value.push_str(piece);
                    }
                    None => {
                        return Err(Error::spec(format!("'{piece}' is not of the form key=value")));
                    }
                },
            }
        }
        Ok(pairs)
    }

    /// Checks `pairs` against `declared`: every key must be declared and given once.
    pub fn new(
        owner: impl Into<String>,
        declared: Vec<ParamInfo>,
        pairs: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Self, Error> {
        let owner = owner.into();
        let mut values = BTreeMap::new();
        for (key, value) in pairs {
            if !declared.iter().any(|p| p.name == key) {
                return Err(Error::spec(format!(
                    "{owner} has no parameter '{key}'; valid: {}",
                    list_names(&declared)
                )));
            }
            if values.insert(key.clone(), value).is_some() {
                return Err(Error::spec(format!("{owner}: parameter '{key}' given twice")));
            }
        }
        Ok(Params { owner, values, declared })
    }

    /// Parses `key=value,...` against `declared`.
    pub fn parse(owner: impl Into<String>, declared: Vec<ParamInfo>, text: &str) -> Result<Self, Error> {
        Self::new(owner, declared, Self::parse_list(text)?)
    }

    /// Only the defaults.
    pub fn defaults(owner: impl Into<String>, declared: Vec<ParamInfo>) -> Self {
        Params { owner: owner.into(), values: BTreeMap::new(), declared }
    }

    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// The given value, or the declared default.
    pub fn raw(&self, key: &str) -> &str {
        if let Some(value) = self.values.get(key) {
            return value;
        }
        match self.declared.iter().find(|p| p.name == key) {
            Some(info) => &info.default,
            None => panic!("parameter '{key}' of {} read but never declared", self.owner),
        }
    }

    /// Whether the user gave this parameter (rather than leaving the default).
    pub fn is_set(&self, key: &str) -> bool {
        self.values.contains_key(key)
    }

    /// The given values, in key order.
    pub fn given(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    pub fn get<T: FromStr>(&self, key: &str) -> Result<T, Error> {
        let raw = self.raw(key);
        raw.parse().map_err(|_| {
            Error::spec(format!(
                "{}: parameter {key} must be {}, got '{raw}'",
                self.owner,
                std::any::type_name::<T>().rsplit("::").next().unwrap_or("a value")
            ))
        })
    }

    /// A number that must lie in `range`.
    pub fn get_in<T>(&self, key: &str, range: std::ops::RangeInclusive<T>) -> Result<T, Error>
    where
        T: FromStr + PartialOrd + std::fmt::Display + Copy,
    {
        let value: T = self.get(key)?;
        if !range.contains(&value) {
            return Err(Error::spec(format!(
                "{}: parameter {key} must be between {} and {}, got {value}",
                self.owner,
                range.start(),
                range.end()
            )));
        }
        Ok(value)
    }

    pub fn get_bool(&self, key: &str) -> Result<bool, Error> {
        match self.raw(key) {
            "true" | "1" | "yes" | "on" => Ok(true),
            "false" | "0" | "no" | "off" => Ok(false),
            other => Err(Error::spec(format!(
                "{}: parameter {key} must be true or false, got '{other}'",
                self.owner
            ))),
        }
    }

    /// One of a fixed set of words.
    pub fn get_choice<'a>(&self, key: &str, choices: &[&'a str]) -> Result<&'a str, Error> {
        let raw = self.raw(key);
        choices.iter().copied().find(|c| *c == raw).ok_or_else(|| {
            Error::spec(format!(
                "{}: parameter {key} must be one of {}, got '{raw}'",
                self.owner,
                choices.join(", ")
            ))
        })
    }

    /// A comma-separated list of numbers.
    pub fn get_list(&self, key: &str) -> Result<Vec<f64>, Error> {
        let raw = self.raw(key);
        if raw.is_empty() {
            return Ok(Vec::new());
        }
        raw.split(',')
            .map(|x| {
                x.trim().parse::<f64>().map_err(|_| {
                    Error::spec(format!(
                        "{}: parameter {key} must be a comma-separated list of numbers, got '{raw}'",
                        self.owner
                    ))
                })
            })
            .collect()
    }

    pub fn declared(&self) -> &[ParamInfo] {
        &self.declared
    }
}

fn list_names(declared: &[ParamInfo]) -> String {
    if declared.is_empty() {
        "none".to_string()
    } else {
        declared.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared() -> Vec<ParamInfo> {
        vec![
            ParamInfo::new("c", 1.4, "exploration"),
            ParamInfo::new("w", "1,2", "weights"),
            ParamInfo::new("fast", false, "be quick"),
        ]
    }

    #[test]
    fn parses_values_lists_and_defaults() {
        let p = Params::parse("mcts", declared(), "w=3, 4.5,6,c=2").unwrap();
        assert_eq!(p.get::<f64>("c").unwrap(), 2.0);
        assert_eq!(p.get_list("w").unwrap(), vec![3.0, 4.5, 6.0]);
        assert!(!p.get_bool("fast").unwrap());
        assert!(p.is_set("c") && !p.is_set("fast"));
    }

    #[test]
    fn unknown_key_lists_the_valid_ones() {
        let err = Params::parse("mcts", declared(), "x=1").unwrap_err().to_string();
        assert!(err.contains("no parameter 'x'") && err.contains("c, w, fast"), "{err}");
    }

    #[test]
    fn bad_values_are_explained() {
        let p = Params::parse("mcts", declared(), "c=abc,fast=maybe").unwrap();
        assert!(p.get::<f64>("c").unwrap_err().to_string().contains("got 'abc'"));
        assert!(p.get_bool("fast").is_err());
        assert!(p.get_in("c", 0.0..=1.0).is_err());
        assert!(Params::parse("mcts", declared(), "c=1,c=2").is_err());
        assert!(Params::parse("mcts", declared(), "=1").is_err());
        assert!(Params::parse("mcts", declared(), "1").is_err());
    }
}
