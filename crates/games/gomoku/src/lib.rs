//! Gomoku (docs/gomoku.md): five in a row on a board of 5×5 to 22×22, under freestyle, standard
//! (exactly five) or renju rules; the document's pattern-weight player (`pattern`), Ply's
//! threat-search engine (`alphabeta`), and the Gomocup brain protocol (`gomocup`).

mod board;
mod document;
mod engine;
pub mod gomocup;
mod lines;
mod notation;
mod renju;
mod vcf;
mod vct;

pub use board::{BLACK, Board, DIRECTIONS, EMPTY, Gomoku, MAX_SIZE, MIN_SIZE, Point, Rule, WHITE};
pub use document::{DocumentConfig, DocumentPlayer, direction_weight, point_weights};
pub use engine::{
    COMBOS, Engine, EngineConfig, EnginePlayer, EvalWeights, Evaluation, FEATURES, Facing, HIDDEN,
    HIDDEN_ONE, HiddenLayer, NodeMoves, THREAT_MASKS,
};
pub use lines::Shape;
pub use notation::{board_to_text, parse_board, point_to_xy_text, winning_line};
pub use renju::is_forbidden;

use std::sync::Arc;

use ply_core::rng::Rng;
use ply_core::{AgentFactory, AgentSpec, BenchCase, Error, Game, GameDef, ParamInfo, Params, Resource};
use ply_search::{NeutralEval, UniformRollout, factories};
use rand::RngExt;

pub fn parse_rule(text: &str) -> Result<Rule, Error> {
    match text {
        "freestyle" => Ok(Rule::Freestyle),
        "standard" => Ok(Rule::Standard),
        "renju" => Ok(Rule::Renju),
        other => Err(Error::spec(format!("rule must be freestyle, standard or renju, got '{other}'"))),
    }
}

/// The `alphabeta` agent's parameters, for `ply` and for `pbrain-ply SPEC`.
fn engine_params() -> Vec<ParamInfo> {
    vec![
        ParamInfo::new("depth", EngineConfig::default().max_depth, "deepest iteration"),
        ParamInfo::new("tt", EngineConfig::default().tt_bits, "transposition table size as a power of two")
            .costs(Resource::TableBits { entry_bytes: Engine::TT_ENTRY_BYTES }),
        ParamInfo::new("vcf", EngineConfig::default().vcf_depth, "plies of the continuous-fours search"),
        ParamInfo::new("width", EngineConfig::default().width, "most moves tried at an interior node"),
        ParamInfo::new(
            "vct",
            EngineConfig::default().vct_threes,
            "open threes the root's threat search allows either side (0: none)",
        ),
        ParamInfo::new("lmr", EngineConfig::default().reductions, "late move reductions"),
        ParamInfo::new(
            "lmrlog",
            EngineConfig::default().reduction_divisor,
            "late move reductions of 0.5 + ln(depth)·ln(move)·100/lmrlog plies, one less at PV nodes (0: one ply)",
        ),
        ParamInfo::new(
            "leafvcf",
            EngineConfig::default().leaf_vcf,
            "plies of the continuous-fours search at the tree's leaves (0: the static value alone)",
        ),
        ParamInfo::new(
            "quiesce",
            EngineConfig::default().quiesce,
            "fours a line may add at the tree's leaves, each answered by its block (0: the static value alone)",
        ),
        ParamInfo::new(
            "fhr",
            EngineConfig::default().fail_high_margin,
            "fail-high reduction: an expected cut node this much a ply above beta searches its moves other than fours a ply less (0: off)",
        ),
        ParamInfo::new(
            "razor",
            EngineConfig::default().razor,
            "razoring: a node this much a ply below alpha, two plies from the leaves at most, drops into quiescence (0: off)",
        ),
        ParamInfo::new(
            "threatext",
            EngineConfig::default().threat_extensions,
            "answers to an open three searched without using depth, at most this many on a line (0: none)",
        ),
        ParamInfo::new(
            "rfp",
            EngineConfig::default().reverse_futility,
            "reverse futility margin a ply, at depth 3 or less (0: off)",
        ),
        ParamInfo::new(
            "lmp",
            EngineConfig::default().move_count_pruning,
            "move-count pruning: 3 + depth² moves at null-window nodes of depth 4 or less, the rest if all lose",
        ),
        ParamInfo::new(
            "defuse",
            EngineConfig::default().defusers,
            "answers to a four-three in the making include the points that stop either of its lines",
        ),
        ParamInfo::new(
            "fourwin",
            EngineConfig::default().double_four_wins,
            "a node where the side to move makes an open four or a double four, and the opponent no five, is won",
        ),
        ParamInfo::new(
            "threewin",
            EngineConfig::default().double_three_wins,
            "a node where the side to move makes two open threes, and the opponent no four, is won",
        ),
        ParamInfo::new(
            "probe",
            EngineConfig::default().four_three_probe,
            "a node where the side to move has a four-three whose block makes the opponent no four is won",
        ),
        ParamInfo::new(
            "counter",
            EngineConfig::default().counter_threes,
            "answers to an open three also include moves making this many open threes of our own (0: none)",
        ),
        ParamInfo::new(
            "spend",
            EngineConfig::default().time_share,
            "percent of a time budget used once the best move has settled (up to 90 while it changes)",
        ),
        ParamInfo::new(
            "sound",
            EngineConfig::default().sound,
            "a loss is proven only once every move loses (false: among the moves searched)",
        ),
        ParamInfo::new(
            "attack",
            EngineConfig::default().attack,
            "weight of the side to move's own point scores, in percent of the opponent's (eval=hand)",
        ),
        ParamInfo::new(
            "eval",
            "learned",
            "evaluation tables: learned (fitted by gomoku-train) or hand (hand-set scores)",
        ),
        ParamInfo::new(
            "weights",
            "shipped",
            "eval=learned: the tables, 'shipped' (built in) or a file written by gomoku-train fit",
        )
        .costs(Resource::File { builtin: &["shipped"] }),
        ParamInfo::new(
            "threads",
            EngineConfig::default().threads,
            "threads searching together (Lazy SMP, one shared table); more than 1 does not replay exactly",
        )
        .costs(Resource::Threads),
    ]
}

/// The engine's settings from checked `alphabeta` parameters.
fn engine_config(p: &Params) -> Result<EngineConfig, Error> {
    Ok(EngineConfig {
        max_depth: p.get_in("depth", 1..=100)?,
        tt_bits: p.get_in("tt", 10..=28)?,
        vcf_depth: p.get_in("vcf", 0..=60)?,
        width: p.get_in("width", 1..=400)?,
        vct_threes: p.get_in("vct", 0..=8)?,
        reductions: p.get_bool("lmr")?,
        reduction_divisor: p.get_in("lmrlog", 0..=10_000)?,
        sound: p.get_bool("sound")?,
        leaf_vcf: p.get_in("leafvcf", 0..=60)?,
        quiesce: p.get_in("quiesce", 0..=60)?,
        threat_extensions: p.get_in("threatext", 0..=64)?,
        reverse_futility: p.get_in("rfp", 0..=10_000)?,
        fail_high_margin: p.get_in("fhr", 0..=10_000)?,
        razor: p.get_in("razor", 0..=10_000)?,
        move_count_pruning: p.get_bool("lmp")?,
        defusers: p.get_bool("defuse")?,
        double_four_wins: p.get_bool("fourwin")?,
        double_three_wins: p.get_bool("threewin")?,
        four_three_probe: p.get_bool("probe")?,
        counter_threes: p.get_in("counter", 0..=4)?,
        time_share: p.get_in("spend", 1..=90)?,
        attack: p.get_in("attack", 0..=1000)?,
        evaluation: match (p.get_choice("eval", &["learned", "hand"])?, p.raw("weights")) {
            ("hand", _) => Evaluation::Hand,
            (_, "shipped") => Evaluation::Learned,
            (_, path) => Evaluation::Tables(Arc::new(EvalWeights::load(path)?)),
        },
        threads: p.get_in("threads", 1..=Engine::MAX_THREADS)?,
    })
}

/// The engine's settings from an agent spec, `alphabeta` or `alphabeta:threatext=3,vct=3`, checked
/// as `ply` checks it, so that `pbrain-ply SPEC` plays a variant in a match manager. It takes no
/// `time` or `iters`: the manager's clock sets the time.
pub fn engine_config_from_spec(text: &str) -> Result<EngineConfig, Error> {
    let spec = AgentSpec::parse(text)?;
    if spec.name != "alphabeta" {
        return Err(Error::spec(format!("the brain plays the alphabeta engine, not '{}'", spec.name)));
    }
    engine_config(&Params::new("alphabeta", engine_params(), spec.params)?)
}

impl GameDef for Board {
    const NAME: &'static str = "gomoku";
    const ABOUT: &'static str = "Gomoku: five in a row, freestyle, standard or renju, 5x5 to 22x22";

    fn options() -> Vec<ParamInfo> {
        vec![
            ParamInfo::new("size", 15, "board size, 5-22"),
            ParamInfo::new(
                "rule",
                "freestyle",
                "freestyle (five or more wins), standard (exactly five), renju",
            ),
        ]
    }

    fn new_game(options: &Params) -> Result<Self, Error> {
        let size = options.get_in("size", MIN_SIZE..=MAX_SIZE)?;
        Ok(Board::new(size, parse_rule(options.get_choice("rule", &["freestyle", "standard", "renju"])?)?))
    }

    fn agents() -> Vec<AgentFactory<Self>> {
        vec![
            AgentFactory::new(
                "alphabeta",
                "threat-search engine: incremental line shapes, VCF, PVS alpha-beta, TT, killers/history, renju-aware",
                engine_params(),
                |p, _seed| Ok(Box::new(EnginePlayer::new(engine_config(p)?))),
            ),
            AgentFactory::new(
                "pattern",
                "the document's player: attack/defence pattern weights, decision rule, 3-step pruned prediction",
                vec![ParamInfo::new("keep", 0.5, "share of candidates kept after each prediction step")],
                |p, _seed| {
                    Ok(Box::new(DocumentPlayer::new(DocumentConfig { keep: p.get_in("keep", 0.01..=1.0)? })))
                },
            ),
            factories::mcts("mcts", "generic UCT with random playouts (for comparison)", vec![], |_| {
                Ok((NeutralEval, UniformRollout))
            }),
            factories::random(),
        ]
    }

    fn bench_cases() -> Vec<BenchCase> {
        // Positions from the engine's self-play, with no win on the board for the side to move.
        const MIDDLE: &str = "k5 k9 h9 j10 l6 m7 l8 l10 l5 l7";
        const TACTICAL: &str = "i9 h5 f9 g5 g10 f5 i5 d5 e5 g6 e8 h11 h9 g9 g8 e4";
        // A quiet middle game, twelve stones in: no forced win within the depth.
        const QUIET: &str = "h10 j6 g9 i5 f8 e7 i9 k7 i11 j12 h4 j9";
        let cap = 50_000_000;
        vec![
            BenchCase { position: "h8 i9 j8", agent: "alphabeta:depth=12", iterations: cap },
            BenchCase { position: MIDDLE, agent: "alphabeta:depth=12", iterations: cap },
            BenchCase { position: TACTICAL, agent: "alphabeta:depth=12", iterations: cap },
            BenchCase { position: QUIET, agent: "alphabeta:depth=12", iterations: cap },
        ]
    }

    /// One random stone each: three would give black two random stones against one, and many
    /// such openings are lost for white before the game begins (freestyle is a first-player win).
    fn opening_plies(&self) -> usize {
        2
    }

    /// Opening stones land near the centre, each within two points of the stones already
    /// there: a stone thrown to the edge, or far from the fight, is no opening anyone plays.
    /// Long openings can fill the centre without a five: then any legal point near a stone, or
    /// any legal point at all.
    fn opening_action(&self, rng: &mut Rng) -> Point {
        let c = self.size() as i64 / 2;
        let spread = 3i64.min(c);
        let near = |x: usize, y: usize| {
            self.moves().is_empty()
                || self.moves().iter().any(|&q| {
                    let (qx, qy) = self.xy(q);
                    qx.abs_diff(x) <= 2 && qy.abs_diff(y) <= 2
                })
        };
        let centre = (c - spread..=c + spread).map(|v| v as usize);
        let open = |(x, y): (usize, usize)| self.point(x, y).is_some_and(|p| self.is_legal(p)) && near(x, y);
        if !centre.clone().any(|y| centre.clone().any(|x| open((x, y)))) {
            let legal = self.actions();
            let close: Vec<Point> = legal.iter().copied().filter(|&p| open(self.xy(p))).collect();
            let pool = if close.is_empty() { &legal } else { &close };
            return pool[rng.random_range(0..pool.len())];
        }
        loop {
            let x = (c + rng.random_range(-spread..=spread)) as usize;
            let y = (c + rng.random_range(-spread..=spread)) as usize;
            if let Some(p) = self.point(x, y)
                && self.is_legal(p)
                && near(x, y)
            {
                return p;
            }
        }
    }
}
