//! The one Rust loader for the shared vector files, `<repo>/vectors/*/*.jsonl`.
//!
//! Format (owned by python/montlab/vectors.py, which documents it): JSON Lines, one record per
//! line, blank lines ignored. Big integers are JSON strings in `0x` hex (a leading `-` allowed);
//! small integers (parameters, counts) are JSON numbers. `"kind"` defaults to `"mul"`.
//! `MONTLAB_VECTORS` overrides the folder, as it does for the Python loader.

use std::path::{Path, PathBuf};

use num_bigint::{BigInt, Sign};
use serde_json::{Map, Value};

/// One record and where it came from (`file:line`), for failure messages.
pub struct Record {
    pub source: String,
    pub fields: Map<String, Value>,
}

impl Record {
    /// `"kind"`, `"mul"` when absent.
    pub fn kind(&self) -> &str {
        self.fields
            .get("kind")
            .and_then(Value::as_str)
            .unwrap_or("mul")
    }

    pub fn algo(&self) -> Option<&str> {
        self.fields.get("algo").and_then(Value::as_str)
    }

    /// An integer parameter from `"params"` (`None` when absent or not an integer).
    pub fn param(&self, name: &str) -> Option<i64> {
        self.fields.get("params")?.get(name)?.as_i64()
    }

    /// A big-integer field: `Ok(None)` when absent, `Err` when present but not an integer.
    pub fn int(&self, name: &str) -> Result<Option<BigInt>, String> {
        match self.fields.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => parse_int(v)
                .map(Some)
                .ok_or_else(|| format!("{}: field {name:?} = {v} is not an integer", self.source)),
        }
    }

    /// A big-integer field that must be present.
    pub fn req(&self, name: &str) -> Result<BigInt, String> {
        self.int(name)?
            .ok_or_else(|| format!("{}: missing field {name:?}", self.source))
    }
}

/// `0x`-hex or decimal string (optionally negative), or a JSON integer.
fn parse_int(v: &Value) -> Option<BigInt> {
    match v {
        Value::Number(n) => n
            .as_i64()
            .map(BigInt::from)
            .or_else(|| n.as_u64().map(BigInt::from)),
        Value::String(s) => {
            let (sign, digits) = match s.strip_prefix('-') {
                Some(rest) => (Sign::Minus, rest),
                None => (Sign::Plus, s.as_str()),
            };
            let magnitude = match digits
                .strip_prefix("0x")
                .or_else(|| digits.strip_prefix("0X"))
            {
                Some(hex) => BigInt::parse_bytes(hex.as_bytes(), 16)?,
                None => BigInt::parse_bytes(digits.as_bytes(), 10)?,
            };
            Some(if sign == Sign::Minus {
                -magnitude
            } else {
                magnitude
            })
        }
        _ => None,
    }
}

/// `MONTLAB_VECTORS`, else `<repo>/vectors` found from this crate's manifest directory.
pub fn vectors_dir() -> PathBuf {
    match std::env::var_os("MONTLAB_VECTORS") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors"),
    }
}

/// Every `*.jsonl` one folder below the vectors directory (kat/, edge/, random/ ...), sorted.
/// A missing vectors folder gives an empty list.
pub fn vector_files() -> Result<Vec<PathBuf>, String> {
    let root = vectors_dir();
    let mut files = Vec::new();
    let Ok(dirs) = std::fs::read_dir(&root) else {
        return Ok(files);
    };
    for dir in dirs {
        let dir = dir.map_err(|e| format!("{}: {e}", root.display()))?.path();
        if !dir.is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))? {
            let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
            if path.extension().is_some_and(|e| e == "jsonl") && path.is_file() {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// The records of one file. A line that is not a JSON object is an error.
pub fn open_vector_file(path: &Path) -> Result<Vec<Record>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let name = path
        .strip_prefix(vectors_dir())
        .unwrap_or(path)
        .display()
        .to_string();
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let source = format!("{name}:{}", i + 1);
        match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(fields)) => out.push(Record { source, fields }),
            Ok(_) => return Err(format!("{source}: not a JSON object")),
            Err(e) => return Err(format!("{source}: not JSON: {e}")),
        }
    }
    Ok(out)
}

/// Every record of every vector file, and how many files there were.
pub fn load_all() -> Result<(Vec<Record>, usize), String> {
    let files = vector_files()?;
    let mut records = Vec::new();
    for f in &files {
        records.extend(open_vector_file(f)?);
    }
    Ok((records, files.len()))
}
