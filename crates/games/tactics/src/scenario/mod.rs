//! The source document's AI (SEEDS.md §4; docs/tactics.md, "The scenario AI"): whole-turn
//! scenarios written by hand-made strategies, improved by mutation while the budget lasts, judged
//! by a heuristic evaluation; only the best scenario's first act is played, and the rest of the
//! turn is improved further at the next decision. Fifteen steps, each a switch; `level` turns
//! them on cumulatively as the document's difficulty levels did.

pub mod eval;
pub mod search;
pub mod strategies;

use ply_core::{Error, Params};

pub use eval::{DEFAULT_MULTIPLIERS, EngagementForm, TUNED, Terms, Weights, evaluate};
pub use search::ScenarioAgent;
pub use strategies::{Rule, Step, Strategy};

/// The document's fifteen steps by name, in order: step k is on from level 10·k.
pub const STEPS: [&str; 15] = [
    "random",
    "values",
    "max_agro",
    "least_damage",
    "hide_flee",
    "mutation",
    "bait",
    "cohesion",
    "type_orders",
    "mutation_kinds",
    "semi_random",
    "sorcerer",
    "engagement",
    "keep_best",
    "ratio",
];

/// The AI's character (the document's "races"): which strategies it may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Personality {
    /// Only run forward and attack: max_agro in its orders and the type orders, no mutation.
    Zombie,
    /// Aggressive strategies only: no least-damage, far_attack_and_hide or close_group_flee, and
    /// no cautious repairs.
    Orc,
    /// Everything.
    Cyborg,
}

/// The steps switched on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Switches {
    /// Step 0: three random scenarios (always on; without step 1 they are scored at random).
    pub random: bool,
    /// Step 1: score by unit values.
    pub values: bool,
    /// Step 2: max_agro, in team order and reversed.
    pub max_agro: bool,
    /// Step 3: the least-damage strategy, and the threat terms of the evaluation.
    pub threat: bool,
    /// Step 4: far_attack_and_hide and close_group_flee.
    pub hide_flee: bool,
    /// Step 5: mutation (1-3 acts redrawn).
    pub mutation: bool,
    /// Step 6: the bait term.
    pub bait: bool,
    /// Step 7: cohesion and terrain terms.
    pub cohesion: bool,
    /// Step 8: the six type orders.
    pub type_orders: bool,
    /// Step 9: three kinds of mutation.
    pub mutation_kinds: bool,
    /// Step 10: semi-random strategies.
    pub semi_random: bool,
    /// Step 11: the sorcerer's line-clearing strategy.
    pub sorcerer: bool,
    /// Step 12: the engagement term (with the losing side's corrective rule).
    pub engagement: bool,
    /// Step 13: keep only the best 8 scenarios.
    pub keep_best: bool,
    /// Step 14: score as the ratio of our points to theirs.
    pub ratio: bool,
}

impl Switches {
    /// The steps of a level: step k on when `level` ≥ 10·k.
    pub fn level(level: u32) -> Switches {
        let on = |k: u32| level >= 10 * k;
        Switches {
            random: true,
            values: on(1),
            max_agro: on(2),
            threat: on(3),
            hide_flee: on(4),
            mutation: on(5),
            bait: on(6),
            cohesion: on(7),
            type_orders: on(8),
            mutation_kinds: on(9),
            semi_random: on(10),
            sorcerer: on(11),
            engagement: on(12),
            keep_best: on(13),
            ratio: on(14),
        }
    }

    pub fn all() -> Switches {
        Switches::level(140)
    }

    fn flag(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "random" => &mut self.random,
            "values" => &mut self.values,
            "max_agro" => &mut self.max_agro,
            "least_damage" => &mut self.threat,
            "hide_flee" => &mut self.hide_flee,
            "mutation" => &mut self.mutation,
            "bait" => &mut self.bait,
            "cohesion" => &mut self.cohesion,
            "type_orders" => &mut self.type_orders,
            "mutation_kinds" => &mut self.mutation_kinds,
            "semi_random" => &mut self.semi_random,
            "sorcerer" => &mut self.sorcerer,
            "engagement" => &mut self.engagement,
            "keep_best" => &mut self.keep_best,
            "ratio" => &mut self.ratio,
            _ => return None,
        })
    }

    /// Switches steps on (`on`) or off by name, names joined by `+`.
    pub fn set(&mut self, names: &str, on: bool) -> Result<(), String> {
        for name in names.split('+').filter(|n| !n.is_empty() && *n != "none") {
            if name == "random" && !on {
                return Err("step 'random' cannot be switched off: it is the scenarios of last resort".into());
            }
            *self
                .flag(name)
                .ok_or_else(|| format!("'{name}' is not a step; the steps are {}", STEPS.join(", ")))? = on;
        }
        Ok(())
    }
}

/// Everything the agent's parameters fix.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    pub switches: Switches,
    pub personality: Personality,
    pub weights: Weights,
    /// Scenarios kept with step 13.
    pub keep: usize,
    /// Evaluations per decision when the budget sets no limit.
    pub default_evals: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            switches: Switches::all(),
            personality: Personality::Cyborg,
            weights: Weights::default(),
            keep: 8,
            default_evals: 2000,
        }
    }
}

impl Config {
    /// The strategies this configuration writes scenarios with, in the order they are tried.
    pub fn strategies(&self) -> Vec<Strategy> {
        let on = &self.switches;
        let calm = self.personality == Personality::Cyborg;
        let wild = self.personality != Personality::Zombie;
        let mut list = Vec::new();
        if on.max_agro {
            list.extend([Strategy::MaxAgro(false), Strategy::MaxAgro(true)]);
        }
        if on.threat && calm {
            list.push(Strategy::LeastDamage);
        }
        if on.hide_flee && calm {
            list.extend([Strategy::FarAttackAndHide, Strategy::CloseGroupFlee]);
        }
        if on.type_orders {
            list.extend(strategies::TYPE_ORDERS.map(Strategy::TypeOrder));
        }
        if on.semi_random && wild {
            list.extend([Strategy::SemiRandom; 3]);
        }
        if on.sorcerer && wild {
            list.push(Strategy::SorcererClear);
        }
        if wild || list.is_empty() {
            list.extend([Strategy::Random; 3]);
        }
        list
    }

    /// The rules that repair a broken act (the document's "standard strategies").
    pub fn repairs(&self) -> Vec<Rule> {
        let on = &self.switches;
        let mut list = Vec::new();
        if on.max_agro {
            list.push(Rule::Aggressive);
        }
        if on.threat && self.personality == Personality::Cyborg {
            list.push(Rule::LeastDamage);
        }
        if on.semi_random && self.personality != Personality::Zombie {
            list.push(Rule::SemiRandom);
        }
        if list.is_empty() {
            list.push(Rule::Random);
        }
        list
    }

    /// Whether scenarios are mutated at all (zombies never think twice).
    pub fn mutates(&self) -> bool {
        self.switches.mutation && self.personality != Personality::Zombie
    }

    /// Reads the agent's parameters.
    pub fn from_params(params: &Params) -> Result<Config, Error> {
        let owner = "scenario";
        let level: u32 = params.get_in("level", 0..=140)?;
        if !level.is_multiple_of(10) {
            return Err(Error::spec(format!(
                "{owner}: level goes in steps of 10 (0, 10, ... 140), not {level}"
            )));
        }
        let mut switches = Switches::level(level);
        switches
            .set(params.raw("on"), true)
            .map_err(|e| Error::spec(format!("{owner}: parameter on: {e}")))?;
        switches
            .set(params.raw("off"), false)
            .map_err(|e| Error::spec(format!("{owner}: parameter off: {e}")))?;
        let personality = match params.get_choice("personality", &["cyborg", "orc", "zombie"])? {
            "zombie" => Personality::Zombie,
            "orc" => Personality::Orc,
            _ => Personality::Cyborg,
        };
        let list = params.get_list("weights")?;
        let multipliers: [f64; TUNED] = list.try_into().map_err(|w: Vec<f64>| {
            Error::spec(format!(
                "{owner}: weights needs {TUNED} numbers (multipliers of the hand-set terms), got {}",
                w.len()
            ))
        })?;
        if multipliers.iter().any(|m| !(0.0..=100.0).contains(m)) {
            return Err(Error::spec(format!("{owner}: weights are multipliers between 0 and 100")));
        }
        let engagement_form =
            match params.get_choice("engagement", &["document", "exchange", "balance", "reply"])? {
                "reply" => EngagementForm::Reply,
                "exchange" => EngagementForm::Exchange,
                "balance" => EngagementForm::Balance,
                _ => EngagementForm::Document,
            };
        Ok(Config {
            switches,
            personality,
            weights: Weights {
                engagement_form,
                losing_factor: params.get_in("corrective", 1.0..=10.0)?,
                ..Weights::scaled(&multipliers)
            },
            keep: params.get_in("keep", 1..=1000)?,
            default_evals: params.get_in("evals", 1..=100_000_000)?,
        })
    }
}
