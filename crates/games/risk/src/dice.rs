//! Battle odds, exact: one roll's outcomes by enumerating every die, and the chance of taking a
//! territory by the Markov chain of rolls that `blitz` plays out.

use std::sync::OnceLock;

/// The outcomes of one roll with `attack` attacking and `defend` defending dice (each 1–3 and
/// 1–2): (armies the attacker loses, armies the defender loses, how many of the `6^(a+d)` rolls
/// give it). Highest dice are compared pairwise, ties go to the defender.
pub fn roll_outcomes(attack: usize, defend: usize) -> &'static [(u8, u8, u32)] {
    static TABLE: OnceLock<Vec<Vec<(u8, u8, u32)>>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut table = Vec::new();
        for a in 1..=3 {
            for d in 1..=2 {
                table.push(enumerate(a, d));
            }
        }
        table
    });
    assert!((1..=3).contains(&attack) && (1..=2).contains(&defend), "{attack} against {defend} dice");
    &table[(attack - 1) * 2 + defend - 1]
}

fn enumerate(attack: usize, defend: usize) -> Vec<(u8, u8, u32)> {
    let dice = attack + defend;
    let mut counts = [0u32; 3];
    for roll in 0..6usize.pow(dice as u32) {
        let face = |i: usize| roll / 6usize.pow(i as u32) % 6;
        let mut a: Vec<usize> = (0..attack).map(face).collect();
        let mut d: Vec<usize> = (attack..dice).map(face).collect();
        a.sort_unstable_by(|x, y| y.cmp(x));
        d.sort_unstable_by(|x, y| y.cmp(x));
        let compared = attack.min(defend);
        let attacker_losses = (0..compared).filter(|&i| a[i] <= d[i]).count();
        counts[attacker_losses] += 1;
    }
    let compared = attack.min(defend);
    (0..=compared)
        .filter(|&lost| counts[lost] > 0)
        .map(|lost| (lost as u8, (compared - lost) as u8, counts[lost]))
        .collect()
}

/// The probability of one roll's outcome.
pub fn probability(count: u32, attack: usize, defend: usize) -> f64 {
    // 6^dice, exact in f64; a table, since every roll of a random game asks.
    const ROLLS: [f64; 6] = [1.0, 6.0, 36.0, 216.0, 1296.0, 7776.0];
    f64::from(count) / ROLLS[attack + defend]
}

const CHAIN_SIZE: usize = 128;

/// The chance that `attackers` armies able to attack (the source keeps one more behind) take a
/// territory held by `defenders`, rolling the most dice every time until one side is out.
/// Beyond 127 armies a side the chain is cut at 127 (the odds there are within 1e-6 of 0 or 1,
/// or of the 127-army value).
pub fn conquest_probability(attackers: u32, defenders: u32) -> f64 {
    if defenders == 0 {
        return 1.0;
    }
    if attackers == 0 {
        return 0.0;
    }
    let table = conquest_table();
    let a = (attackers as usize).min(CHAIN_SIZE - 1);
    let d = (defenders as usize).min(CHAIN_SIZE - 1);
    table[a * CHAIN_SIZE + d]
}

fn conquest_table() -> &'static [f64] {
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut p = vec![0.0; CHAIN_SIZE * CHAIN_SIZE];
        for a in 0..CHAIN_SIZE {
            for d in 0..CHAIN_SIZE {
                p[a * CHAIN_SIZE + d] = if d == 0 {
                    1.0
                } else if a == 0 {
                    0.0
                } else {
                    let (ad, dd) = (a.min(3), d.min(2));
                    roll_outcomes(ad, dd)
                        .iter()
                        .map(|&(al, dl, n)| {
                            probability(n, ad, dd) * p[(a - al as usize) * CHAIN_SIZE + d - dl as usize]
                        })
                        .sum()
                };
            }
        }
        p
    })
}

/// The expected armies left to the attacker after a blitz that conquers, given it conquers,
/// and to the defender after one that fails: what an evaluation needs beyond the odds.
pub fn expected_survivors(attackers: u32, defenders: u32) -> (f64, f64) {
    let (a0, d0) = ((attackers as usize).min(CHAIN_SIZE - 1), (defenders as usize).min(CHAIN_SIZE - 1));
    // The distribution over (a, d) states, pushed forward roll by roll; every roll removes at
    // least one army, so a0 + d0 rounds empty it.
    let mut mass = vec![0.0; (a0 + 1) * (d0 + 1)];
    mass[a0 * (d0 + 1) + d0] = 1.0;
    let (mut win, mut win_armies, mut lose, mut lose_armies) = (0.0, 0.0, 0.0, 0.0);
    for total in (1..=a0 + d0).rev() {
        for a in 1..=a0.min(total) {
            let d = total - a;
            if d == 0 || d > d0 {
                continue;
            }
            let m = mass[a * (d0 + 1) + d];
            if m == 0.0 {
                continue;
            }
            let (ad, dd) = (a.min(3), d.min(2));
            for &(al, dl, n) in roll_outcomes(ad, dd) {
                let (na, nd) = (a - al as usize, d - dl as usize);
                let q = m * probability(n, ad, dd);
                if nd == 0 {
                    win += q;
                    win_armies += q * na as f64;
                } else if na == 0 {
                    lose += q;
                    lose_armies += q * nd as f64;
                } else {
                    mass[na * (d0 + 1) + nd] += q;
                }
            }
        }
    }
    let given = |armies: f64, p: f64| if p > 0.0 { armies / p } else { 0.0 };
    (given(win_armies, win), given(lose_armies, lose))
}
