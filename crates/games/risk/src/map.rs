//! Risk maps: territories, continents with their bonuses, borders, card pictures and a layout for
//! drawing. The classic world map ships with the crate; others are read from a JSON file
//! (docs/risk.md, "Map files") and checked: a map that could not be played is refused with a
//! message that names the problem.

use std::collections::{HashMap, VecDeque};

use ply_core::Error;
use serde::{Deserialize, Serialize};

/// Territories are bit positions in 64-bit sets, which keeps a state `Copy`-sized and fast.
pub const MAX_TERRITORIES: usize = 64;
/// Territory cards (one per territory) and wild cards share one 128-bit set.
pub const MAX_WILD_CARDS: usize = 8;

const CLASSIC: &str = include_str!("../maps/classic.json");

/// A territory card's picture; three of a kind or one of each make a set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CardKind {
    Infantry,
    Cavalry,
    Artillery,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Territory {
    pub name: String,
    /// The name in notation: lower case, words joined by '-'.
    pub slug: String,
    pub continent: usize,
    pub card: CardKind,
    pub x: f64,
    pub y: f64,
    pub neighbours: Vec<usize>,
    /// `neighbours` as a set of bits.
    pub border: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Continent {
    pub name: String,
    pub bonus: u16,
    pub territories: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Map {
    pub name: String,
    pub about: String,
    pub width: f64,
    pub height: f64,
    pub territories: Vec<Territory>,
    pub continents: Vec<Continent>,
    pub wild_cards: usize,
    by_slug: HashMap<String, usize>,
}

/// The file format (docs/risk.md, "Map files").
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    name: String,
    #[serde(default)]
    about: String,
    #[serde(default = "default_width")]
    width: f64,
    #[serde(default = "default_height")]
    height: f64,
    continents: Vec<ContinentFile>,
    territories: Vec<TerritoryFile>,
    #[serde(default = "default_wilds")]
    wild_cards: usize,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ContinentFile {
    name: String,
    bonus: u16,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TerritoryFile {
    name: String,
    continent: String,
    card: Option<CardKind>,
    #[serde(default)]
    x: f64,
    #[serde(default)]
    y: f64,
    neighbours: Vec<String>,
}

fn default_width() -> f64 {
    1000.0
}
fn default_height() -> f64 {
    600.0
}
fn default_wilds() -> usize {
    2
}

/// Bit positions of a set, lowest first.
pub fn bits(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let bit = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(bit)
    })
}

pub fn slug(name: &str) -> String {
    name.split_whitespace().map(str::to_lowercase).collect::<Vec<_>>().join("-")
}

impl Map {
    pub fn classic() -> Map {
        Map::from_json_text(CLASSIC).expect("the classic map is valid")
    }

    pub fn from_json_text(text: &str) -> Result<Map, Error> {
        let file: MapFile = serde_json::from_str(text)
            .map_err(|e| Error::notation(format!("map file: not a valid map ({e})")))?;
        Map::from_file(file).map_err(|e| Error::notation(format!("map file: {e}")))
    }

    fn from_file(file: MapFile) -> Result<Map, String> {
        let count = file.territories.len();
        if count < 2 {
            return Err(format!("a map needs at least 2 territories, this one has {count}"));
        }
        if count > MAX_TERRITORIES {
            return Err(format!("a map has at most {MAX_TERRITORIES} territories, this one has {count}"));
        }
        if file.wild_cards > MAX_WILD_CARDS {
            return Err(format!("at most {MAX_WILD_CARDS} wild cards, not {}", file.wild_cards));
        }
        let mut continent_index = HashMap::new();
        for (i, c) in file.continents.iter().enumerate() {
            if c.name.trim().is_empty() {
                return Err(format!("continent {} has no name", i + 1));
            }
            if continent_index.insert(c.name.clone(), i).is_some() {
                return Err(format!("continent '{}' is listed twice", c.name));
            }
        }
        let mut by_slug = HashMap::new();
        for (i, t) in file.territories.iter().enumerate() {
            let s = slug(&t.name);
            if s.is_empty() || !s.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '.' || c == '\'') {
                return Err(format!("territory name '{}' cannot be written in notation", t.name));
            }
            if by_slug.insert(s, i).is_some() {
                return Err(format!("territory '{}' is listed twice", t.name));
            }
        }
        let mut territories = Vec::with_capacity(count);
        for (i, t) in file.territories.iter().enumerate() {
            let continent = *continent_index.get(&t.continent).ok_or_else(|| {
                format!("territory '{}' is in an unknown continent '{}'", t.name, t.continent)
            })?;
            let mut neighbours = Vec::new();
            for n in &t.neighbours {
                let j = *by_slug
                    .get(&slug(n))
                    .ok_or_else(|| format!("territory '{}' borders an unknown territory '{n}'", t.name))?;
                if j == i {
                    return Err(format!("territory '{}' borders itself", t.name));
                }
                if neighbours.contains(&j) {
                    return Err(format!("territory '{}' lists the border with '{n}' twice", t.name));
                }
                neighbours.push(j);
            }
            let border = neighbours.iter().fold(0u64, |set, &j| set | 1 << j);
            let card = t.card.unwrap_or([CardKind::Infantry, CardKind::Cavalry, CardKind::Artillery][i % 3]);
            territories.push(Territory {
                name: t.name.clone(),
                slug: slug(&t.name),
                continent,
                card,
                x: t.x,
                y: t.y,
                neighbours,
                border,
            });
        }
        for (i, t) in territories.iter().enumerate() {
            for &j in &t.neighbours {
                if territories[j].border & (1 << i) == 0 {
                    return Err(format!(
                        "the border '{}' - '{}' goes one way only: list it under both",
                        t.name, territories[j].name
                    ));
                }
            }
        }
        let mut continents: Vec<Continent> = file
            .continents
            .iter()
            .map(|c| Continent { name: c.name.clone(), bonus: c.bonus, territories: 0 })
            .collect();
        for (i, t) in territories.iter().enumerate() {
            continents[t.continent].territories |= 1 << i;
        }
        if let Some(empty) = continents.iter().find(|c| c.territories == 0) {
            return Err(format!("continent '{}' has no territories", empty.name));
        }
        let map = Map {
            name: file.name,
            about: file.about,
            width: file.width,
            height: file.height,
            territories,
            continents,
            wild_cards: file.wild_cards,
            by_slug,
        };
        if let Some(cut_off) = map.unreachable_from_first() {
            return Err(format!(
                "the map is not connected: '{}' cannot be reached from '{}'",
                map.territories[cut_off].name, map.territories[0].name
            ));
        }
        Ok(map)
    }

    fn unreachable_from_first(&self) -> Option<usize> {
        let mut seen = 1u64;
        let mut queue = VecDeque::from([0usize]);
        while let Some(t) = queue.pop_front() {
            for &n in &self.territories[t].neighbours {
                if seen & (1 << n) == 0 {
                    seen |= 1 << n;
                    queue.push_back(n);
                }
            }
        }
        (0..self.len()).find(|&t| seen & (1 << t) == 0)
    }

    pub fn len(&self) -> usize {
        self.territories.len()
    }

    pub fn is_empty(&self) -> bool {
        self.territories.is_empty()
    }

    /// Every territory as a set.
    pub fn all(&self) -> u64 {
        if self.len() == 64 { u64::MAX } else { (1u64 << self.len()) - 1 }
    }

    pub fn territory(&self, slug_or_name: &str) -> Option<usize> {
        self.by_slug.get(&slug(slug_or_name)).copied()
    }

    pub fn border_count(&self) -> usize {
        self.territories.iter().map(|t| t.neighbours.len()).sum::<usize>() / 2
    }

    /// Cards in the game: one per territory (numbered as the territories), then the wild cards.
    pub fn card_count(&self) -> usize {
        self.len() + self.wild_cards
    }

    /// A card's picture, or `None` for a wild card.
    pub fn card_kind(&self, card: usize) -> Option<CardKind> {
        self.territories.get(card).map(|t| t.card)
    }

    pub fn card_name(&self, card: usize) -> String {
        match self.territories.get(card) {
            Some(t) => t.slug.clone(),
            None => format!("wild{}", card - self.len() + 1),
        }
    }

    pub fn parse_card(&self, text: &str) -> Option<usize> {
        if let Some(n) = text.strip_prefix("wild") {
            let n: usize = n.parse().ok()?;
            return (1..=self.wild_cards).contains(&n).then(|| self.len() + n - 1);
        }
        self.territory(text)
    }

    /// The map in its file format, for a page to draw and for saving a custom map.
    pub fn to_json(&self) -> serde_json::Value {
        let file = MapFile {
            name: self.name.clone(),
            about: self.about.clone(),
            width: self.width,
            height: self.height,
            continents: self
                .continents
                .iter()
                .map(|c| ContinentFile { name: c.name.clone(), bonus: c.bonus })
                .collect(),
            territories: self
                .territories
                .iter()
                .map(|t| TerritoryFile {
                    name: t.name.clone(),
                    continent: self.continents[t.continent].name.clone(),
                    card: Some(t.card),
                    x: t.x,
                    y: t.y,
                    neighbours: t.neighbours.iter().map(|&n| self.territories[n].name.clone()).collect(),
                })
                .collect(),
            wild_cards: self.wild_cards,
        };
        serde_json::to_value(file).expect("a map serializes")
    }
}
