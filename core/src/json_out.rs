//! A few pieces for writing JSON straight into a byte buffer, for the views that servers
//! ask for often (`view_json`). Each game's writer produces exactly what `serde_json`
//! writes for its `View` (the games' tests compare the two over many random positions).
//! Every string written here is a fixed name (a card, a phase, a colour): none holds a
//! character JSON escapes, so none is escaped.

/// A non-negative integer in decimal.
pub(crate) fn number(out: &mut Vec<u8>, n: u64) {
    if n < 10 {
        out.push(b'0' + n as u8);
        return;
    }
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = n;
    while n > 0 {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    out.extend_from_slice(&digits[i..]);
}

/// A number, or `null`.
pub(crate) fn option_number(out: &mut Vec<u8>, n: Option<u64>) {
    match n {
        Some(n) => number(out, n),
        None => out.extend_from_slice(b"null"),
    }
}

pub(crate) fn boolean(out: &mut Vec<u8>, b: bool) {
    out.extend_from_slice(if b { b"true" } else { b"false" });
}

/// A fixed name in quotes: it must hold no character JSON escapes (`"`, `\`, controls).
pub(crate) fn name(out: &mut Vec<u8>, name: &str) {
    debug_assert!(!name.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20));
    out.push(b'"');
    out.extend_from_slice(name.as_bytes());
    out.push(b'"');
}

/// A name, or `null`.
pub(crate) fn option_name(out: &mut Vec<u8>, n: Option<&str>) {
    match n {
        Some(n) => name(out, n),
        None => out.extend_from_slice(b"null"),
    }
}

/// A list of names.
pub(crate) fn names<'a>(out: &mut Vec<u8>, names: impl IntoIterator<Item = &'a str>) {
    out.push(b'[');
    for (i, n) in names.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        name(out, n);
    }
    out.push(b']');
}

/// A list of numbers.
pub(crate) fn numbers(out: &mut Vec<u8>, numbers: impl IntoIterator<Item = u64>) {
    out.push(b'[');
    for (i, n) in numbers.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        number(out, n);
    }
    out.push(b']');
}

/// A list of booleans.
pub(crate) fn booleans(out: &mut Vec<u8>, bools: impl IntoIterator<Item = bool>) {
    out.push(b'[');
    for (i, b) in bools.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        boolean(out, b);
    }
    out.push(b']');
}

#[cfg(test)]
mod tests {
    #[test]
    fn numbers_are_written_as_serde_writes_them() {
        for n in [0, 1, 9, 10, 11, 99, 100, 12_345, u64::from(u32::MAX), u64::MAX] {
            let mut out = Vec::new();
            super::number(&mut out, n);
            assert_eq!(out, serde_json::to_vec(&n).unwrap());
        }
    }
}
