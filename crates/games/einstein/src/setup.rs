//! The 720 arrangements of cubes 1-6 on a side's six starting squares, numbered in lexicographic
//! order of the cube sequence (arrangement 0 is `123456`, 719 is `654321`). The sequence lists
//! the cubes on [`crate::rules::SETUP_SQUARES`] in order, from the side's own corner outward.

pub const SETUPS: u16 = 720;

/// The cube sequence of arrangement `index` (factorial number system).
pub const fn unrank(index: u16) -> [u8; 6] {
    let mut remaining = [1u8, 2, 3, 4, 5, 6];
    let mut left = 6usize;
    let mut out = [0u8; 6];
    let mut rest = index as usize;
    let mut factorial = 120usize;
    let mut i = 0;
    while i < 6 {
        let pick = rest / factorial;
        rest %= factorial;
        out[i] = remaining[pick];
        let mut j = pick;
        while j + 1 < left {
            remaining[j] = remaining[j + 1];
            j += 1;
        }
        left -= 1;
        // After the last pick the divisor would be 0; nothing is left to divide then.
        factorial = match factorial.checked_div(left) {
            Some(f) => f,
            None => 1,
        };
        i += 1;
    }
    out
}

const fn table() -> [[u8; 6]; SETUPS as usize] {
    let mut all = [[0u8; 6]; SETUPS as usize];
    let mut i = 0;
    while i < SETUPS as usize {
        all[i] = unrank(i as u16);
        i += 1;
    }
    all
}

static ARRANGEMENTS: [[u8; 6]; SETUPS as usize] = table();

pub fn arrangement(index: u16) -> [u8; 6] {
    ARRANGEMENTS[index as usize]
}

/// The number of an arrangement given as its cube sequence, if it is a permutation of 1-6.
pub fn rank(cubes: &[u8]) -> Option<u16> {
    if cubes.len() != 6 {
        return None;
    }
    let mut seen = 0u8;
    for &c in cubes {
        if !(1..=6).contains(&c) || seen & (1 << c) != 0 {
            return None;
        }
        seen |= 1 << c;
    }
    ARRANGEMENTS.iter().position(|a| a == cubes).map(|i| i as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrangements_are_the_permutations_in_order() {
        assert_eq!(arrangement(0), [1, 2, 3, 4, 5, 6]);
        assert_eq!(arrangement(1), [1, 2, 3, 4, 6, 5]);
        assert_eq!(arrangement(719), [6, 5, 4, 3, 2, 1]);
        let mut sorted = ARRANGEMENTS.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 720);
        assert_eq!(sorted, ARRANGEMENTS.to_vec(), "lexicographic order");
        for i in 0..SETUPS {
            assert_eq!(rank(&arrangement(i)), Some(i));
        }
        assert_eq!(rank(&[1, 1, 2, 3, 4, 5]), None);
        assert_eq!(rank(&[1, 2, 3, 4, 5]), None);
        assert_eq!(rank(&[0, 1, 2, 3, 4, 5]), None);
    }
}
