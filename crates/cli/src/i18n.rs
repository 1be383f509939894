//! The language of everything pf1e shows a person, and the catalogue of its
//! words: every fixed text of the reports, tables and progress lines, in
//! English and French side by side, in this one place.
//!
//! The language is `--lang` when given, else the locale: the first
//! non-empty of `LC_ALL`, `LC_MESSAGES` and `LANG` (as POSIX orders them);
//! French when it starts with `fr`, English otherwise. French text follows
//! French typography (a space before `:`); English text does not. Error
//! messages stay in English: they quote files, fields and flags.

use std::fmt::Display;

/// Language of the text reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Français.
    Fr,
}

impl Lang {
    /// The language of the locale variables read through `var`.
    pub fn from_locale(var: impl Fn(&str) -> Option<String>) -> Self {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].iter().find_map(|k| var(k).filter(|v| !v.is_empty()));
        match locale {
            Some(l) if l.starts_with("fr") => Lang::Fr,
            _ => Lang::En,
        }
    }

    /// `--lang` when given, else the process's locale.
    pub fn resolve(flag: Option<Lang>) -> Self {
        flag.unwrap_or_else(|| Self::from_locale(|k| std::env::var(k).ok()))
    }

    /// A catalogue entry in this language.
    pub fn t(self, text: T) -> &'static str {
        match self {
            Lang::En => text.en(),
            Lang::Fr => text.fr(),
        }
    }

    /// A catalogue entry with its `{}` placeholders filled in order.
    pub fn f(self, text: T, args: &[&dyn Display]) -> String {
        fill(self.t(text), args)
    }

    /// The colon of a label: ` : ` in French, `: ` in English.
    pub fn colon(self) -> &'static str {
        match self {
            Lang::En => ": ",
            Lang::Fr => " : ",
        }
    }

    /// `label: value` with this language's colon.
    pub fn label(self, text: T, value: impl Display) -> String {
        format!("{}{}{value}", self.t(text), self.colon())
    }
}

/// Replaces each `{}` of `template` with the next argument.
pub fn fill(template: &str, args: &[&dyn Display]) -> String {
    let mut out = String::with_capacity(template.len() + 16 * args.len());
    let mut args = args.iter();
    let mut rest = template;
    while let Some(at) = rest.find("{}") {
        out.push_str(&rest[..at]);
        match args.next() {
            Some(a) => out.push_str(&a.to_string()),
            None => out.push_str("{}"),
        }
        rest = &rest[at + 2..];
    }
    out.push_str(rest);
    out
}

macro_rules! catalogue {
    ($($key:ident => $en:literal, $fr:literal;)*) => {
        /// A fixed text of the CLI (see [`Lang::t`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[allow(missing_docs)]
        pub enum T { $($key,)* }

        impl T {
            /// Every entry, for the catalogue's own checks.
            #[cfg(test)]
            pub const ALL: &[T] = &[$(T::$key,)*];

            /// The English text.
            pub fn en(self) -> &'static str {
                match self { $(T::$key => $en,)* }
            }

            /// The French text.
            pub fn fr(self) -> &'static str {
                match self { $(T::$key => $fr,)* }
            }
        }
    };
}

catalogue! {
    // ---- pf1e sim: the balance report ----
    BalanceTitle => "=== Balance report ===", "=== Rapport d'équilibrage ===";
    Map => "Map", "Carte";
    Combatant => "combatant", "combattant";
    Combatants => "combatants", "combattants";
    CombatSimulated => "combat simulated", "combat simulé";
    CombatsSimulated => "combats simulated", "combats simulés";
    Cap => "cap", "plafond";
    Round => "round", "round";
    Rounds => "rounds", "rounds";
    SimpleDeath => ", simple monster death", ", mort simplifiée des monstres";
    Wins => "Wins", "Victoires";
    Band3s => "3σ band", "bande 3σ";
    Draws => "Draws", "Nuls";
    AvgRounds => "Average rounds", "Rounds moyens";
    Attrition => "Average attrition per combatant", "Attrition moyenne par combattant";
    ColCombatant => "Combatant", "Combattant";
    ColSide => "Side", "Camp";
    ColHits => "Hits", "Touches";
    ColCrits => "Crits", "Critiques";
    ColDealt => "Damage dealt", "Dégâts infligés";
    ColTaken => "Damage taken", "Dégâts subis";
    ColHealing => "Healing given", "Soins prodigués";
    ColDeaths => "Deaths %", "Morts %";
    SimProgress => "battles", "combats";

    // ---- the transcript ----
    TranscriptTitle => "=== First combat ===", "=== Déroulé du premier combat ===";
    ColRound => "Round", "Round";
    ColMessage => "Message", "Message";

    // ---- pf1e bench ----
    BenchLine => "{} on {}\n{} combats in {} s on {}: {} combats/s\nplayers won {} of {} (seed {})\n",
        "{} sur {}\n{} combats en {} s sur {} : {} combats/s\nles players ont gagné {} sur {} (seed {})\n";
    OneThread => "1 thread", "1 thread";
    Threads => "{} threads", "{} threads";
    BenchReference => "reference encounter: 3 goblins (players) vs 2 orcs (monsters)",
        "rencontre de référence : 3 gobelins (players) contre 2 orques (monsters)";
    BenchLarge => "large encounter: 3 fighters and 2 goblins (players) vs an ogre and an ogre spearman (monsters)",
        "grande rencontre : 3 guerriers et 2 gobelins (players) contre un ogre et un ogre à la lance (monsters)";
    BenchTactics => "tactics encounter: 2 fighters and 2 wolves (players, maneuver=auto) vs 3 orcs and 2 goblins (monsters)",
        "rencontre tactique : 2 guerriers et 2 loups (players, maneuver=auto) contre 3 orques et 2 gobelins (monsters)";
    BenchSpellcasting => "spellcasting encounter: Oni, Nairda and Misty (players: cleric, witch, magus) vs the lich and 2 skeletons (monsters)",
        "rencontre de sorts : Oni, Nairda et Misty (players : prêtresse, sorcière, magus) contre la liche et 2 squelettes (monsters)";

    // ---- sweep reports: every job ----
    Sweep => "sweep {} ({}): {}", "sweep {} ({}) : {}";
    Job => "job {} ({})", "job {} ({})";
    Shards => "shards: {} total, {} computed, {} from cache", "shards : {} au total, {} calculés, {} depuis le cache";
    SeedPartyRules => "seed {}, party {}, rules {}", "seed {}, groupe {}, règles {}";
    Answer => "answer", "réponse";
    Yes => "yes", "oui";
    No => "no", "non";
    NotMeasured => "·", "·";

    // ---- optimize ----
    BestPlan => "best plan: {} — P(survive) {} [{}, {}]", "meilleur plan : {} — P(survie) {} [{}, {}]";
    TiedWithNone => "no other plan tied at 3σ", "aucun autre plan à égalité à 3σ";
    TiedWithOne => "tied at 3σ with 1 other", "à égalité à 3σ avec 1 autre";
    TiedWithMany => "tied at 3σ with {} others", "à égalité à 3σ avec {} autres";
    LeversMatter => "the levers that matter: {}", "les leviers qui comptent : {}";
    NoLeverMatters => "no lever changed the outcome", "aucun levier n'a changé l'issue";
    OptimizeNote => "adversary {}; {} strategies measured in {} runs, {} distinct results",
        "adversaire {} ; {} stratégies mesurées en {} combats, {} résultats distincts";
    TopNote => "showing the top {} of {} rows (--top N to see more)", "les {} premières lignes sur {} (--top N pour en voir plus)";
    TiedNote => "≈: tied with rank 1 at 3σ; names listed together played identically",
        "≈ : à égalité avec le rang 1 à 3σ ; noms listés ensemble : jeu identique";
    ColRank => "Rank", "Rang";
    ColStrategy => "Strategy", "Stratégie";
    ColRuns => "Runs", "Combats";
    ColSurvive => "P(survive) [3σ]", "P(survie) [3σ]";
    ColTpk => "P(TPK)", "P(TPK)";
    ColAnyDeath => "P(≥1 death)", "P(≥1 mort)";
    ColHpLost => "HP lost", "PV perdus";
    ColWorstDecile => "Worst-decile HP", "PV pire décile";
    ColRoundsAvg => "Rounds", "Rounds";
    ColWin => "Win% [3σ]", "Victoire% [3σ]";
    ColStage => "Stage", "Étape";
    StageGrid => "grid", "grille";
    StageRefine => "refine", "affinage";
    StageCandidate => "candidate", "candidat";
    MoreNames => "(+{} more)", "(+{} autres)";

    // ---- minmax ----
    MinmaxAnswer => "answer: party {} against adversary {} — P(survive) {} [{}, {}]; {}",
        "réponse : groupe {} contre adversaire {} — P(survie) {} [{}, {}] ; {}";
    Converged => "converged: the last iteration kept the pair", "convergé : la dernière itération a gardé la paire";
    NotConverged => "not converged", "pas de convergence";
    LlmAdversaries => "; adversaries proposed by the LLM: {}", " ; adversaires proposés par le LLM : {}";
    ColIter => "Iter", "Itér.";
    ColParty => "Party", "Groupe";
    ColAdversary => "Adversary", "Adversaire";
    ColPartySurvive => "P(party survives)", "P(survie groupe)";
    ColPartyTpk => "P(party TPK)", "P(TPK groupe)";
    ColPartyHp => "Party HP lost", "PV perdus groupe";
    ColAdvSurvive => "P(adv. survives)", "P(survie adv.)";
    ColAdvTpk => "P(adv. TPK)", "P(TPK adv.)";
    ColAdvHp => "Adv. HP lost", "PV perdus adv.";

    // ---- danger_map ----
    DangerAnswer => "most dangerous: party HP {}, adversary HP {} — {} {}; {} crossed {} in {} of {} cells",
        "le plus dangereux : PV groupe {}, PV adversaire {} — {} {} ; {} a franchi {} dans {} cases sur {}";
    DangerCells => "cells: party survive% / adversary survive%; ! = {} crossed {} (party {} vs adversary {}); · = not measured (refined elsewhere)",
        "cases : survie% groupe / survie% adversaire ; ! = {} a franchi {} (groupe {} contre adversaire {}) ; · = non mesuré (affiné ailleurs)";
    Layer => "layer {}: {}", "couche {} : {}";
    AllAsInFiles => "as in the files", "comme dans les fichiers";
    Aware => "{} aware", "{} sur ses gardes";
    Unaware => "{} unaware", "{} pris par surprise";
    Copies => "{} extra {}", "{} {} en plus";
    ColPartyAdv => "Party\\Adv", "Groupe\\Adv";

    // ---- frontier ----
    FrontierBelow => "frontier {} {}: crossed at party HP fraction {} and below",
        "frontière {} {} : franchie à la fraction de PV du groupe {} et en dessous";
    FrontierAbove => "frontier {} {}: crossed at party HP fraction {} and above",
        "frontière {} {} : franchie à la fraction de PV du groupe {} et au-dessus";
    FrontierEverywhere => "frontier {} {}: crossed over the whole range", "frontière {} {} : franchie sur tout l'intervalle";
    FrontierAt => "frontier {} {}: party HP fraction = {}", "frontière {} {} : fraction de PV du groupe = {}";
    NoFrontier => "no frontier for {} {} in [{}, {}]", "pas de frontière pour {} {} dans [{}, {}]";
    ColPartyHpFraction => "Party HP", "PV groupe";
    ColCrossed => "Crossed", "Franchi";

    // ---- sensitivity ----
    SensitivityAnswer => "the adversary lever that matters most: {} ({} {} against the default adversary)",
        "le levier adverse qui compte le plus : {} ({} {} contre l'adversaire par défaut)";
    SensitivityNone => "no adversary lever measured", "aucun levier adverse mesuré";
    SensitivityBaseline => "party {}: {} against the default adversary = {}",
        "groupe {} : {} contre l'adversaire par défaut = {}";
    ColLevers => "Levers", "Leviers";
    ColValue => "Value", "Valeur";
    ColDelta => "Delta", "Écart";

    // ---- grid ----
    GridAnswer => "{} cells; best party win rate {} at {} ({})", "{} cases ; meilleur taux de victoire du groupe {} à {} ({})";
    ColHpFractions => "HP fractions", "Fractions de PV";
    ColStrategies => "Strategies", "Stratégies";
    ColPartyWin => "{} win [3σ]", "victoire {} [3σ]";
    ColMeanRounds => "Rounds", "Rounds";
    ColHpLostParty => "HP lost", "PV perdus";

    // ---- images of report.md ----
    PlaybookImage => "P(survive) of the top strategies with 3σ bars (job {})", "P(survie) des meilleures stratégies avec barres 3σ (job {})";
    DangerImage => "danger map of job {}", "carte de danger du job {}";
    SvgDangerTitle => "danger map: {} (party {} vs adversary {})", "carte de danger : {} (groupe {} contre adversaire {})";
    SvgAdversaryHp => "adversary HP fraction", "fraction de PV adverses";
    SvgPartyHp => "party HP", "PV groupe";
    SvgCrossed => "black dots: {} crossed {}", "points noirs : {} a franchi {}";
    SvgPlaybookTitle => "P(survive) against {}, best first (3σ bars; {} runs per strategy at most)",
        "P(survie) contre {}, meilleurs d'abord (barres 3σ ; {} combats par stratégie au plus)";

    // ---- progress ----
    ProgressRuns => "runs (worst case)", "combats (pire cas)";
    ProgressCells => "{}/{} cells, {} shards from cache, {} computed", "{}/{} cases, {} shards du cache, {} calculés";
    ProgressLine => "sweep {} {}: {}/{} runs of at most {}, {}", "sweep {} {} : {}/{} combats sur {} au plus, {}";
    LeadersOptimize => "optimize leaders by P(survive): {}", "meneurs d'optimize par P(survie) : {}";
    ProgressMinmax => "minmax iteration {}: {} vs {} (P(party survives) {})", "minmax itération {} : {} contre {} (P(survie groupe) {})";
    ProgressDanger => "danger_map: {} cells measured", "danger_map : {} cases mesurées";
    ProgressFrontier => "frontier: {} = {} at party HP {}", "frontier : {} = {} à PV groupe {}";
    ProgressSensitivity => "sensitivity: {} moves {} by {}", "sensitivity : {} change {} de {}";

    // ---- ctl ----
    CoordinatorLine => "coordinator: {} workers, {} shards queued, {} leased, {} done, {} cache hits, {} runs/s",
        "coordinateur : {} workers, {} shards en file, {} loués, {} faits, {} servis par le cache, {} combats/s";
    NoSweeps => "no sweeps", "aucun sweep";
    NoWorkers => "no workers", "aucun worker";
    ColId => "Id", "Id";
    ColStatus => "Status", "État";
    ColName => "Name", "Nom";
    ColCells => "Cells", "Cases";
    ColShards => "Shards", "Shards";
    ColComputed => "Computed", "Calculés";
    ColFromCache => "From cache", "Du cache";
    ColThreads => "Threads", "Threads";
    ColLeases => "Leases", "Baux";
    ColShardsDone => "Shards done", "Shards faits";
    ColLastSeen => "Last seen", "Vu il y a";
    MsAgo => "{} ms ago", "{} ms";
    SweepStatusTitle => "sweep {} ({}): {}", "sweep {} ({}) : {}";
    StatusCells => "cells", "cases";
    StatusRuns => "runs", "combats";
    StatusShards => "shards", "shards";
    StatusShardsDetail => "{} total, {} computed, {} from cache, {} queued, {} leased",
        "{} au total, {} calculés, {} du cache, {} en file, {} loués";
    StatusError => "error", "erreur";
    StatusWorstCase => "at most", "au plus";

    // ---- pf1e cache ----
    CachePath => "path", "chemin";
    CacheSize => "size", "taille";
    CacheShards => "cached shards", "shards en cache";
    CacheSweeps => "journaled sweeps", "sweeps au journal";
    CacheMissing => "no cache yet", "pas encore de cache";
    CacheRemoved => "removed {} journaled sweeps", "{} sweeps retirés du journal";
    CacheCleared => "removed {}", "{} supprimé";
    CacheVerified => "checked {} records: {} failed their checksum", "{} enregistrements vérifiés : {} en échec de somme de contrôle";
    CacheRepaired => "removed {} bad records: they are computed again when next needed",
        "{} enregistrements défectueux retirés : ils seront recalculés au besoin";
    CacheRepairHint => "run `pf1e cache verify --repair` to remove them", "lancer `pf1e cache verify --repair` pour les retirer";
    ColFinished => "Finished", "Terminé";
    CacheWaiting => "waiting for the cache {}, in use by {} (Ctrl-C to stop; --db FILE or --no-cache to run alongside)",
        "attente du cache {}, utilisé par {} (Ctrl-C pour arrêter ; --db FICHIER ou --no-cache pour travailler à côté)";
    AnotherProcess => "another process", "un autre processus";
    ProcessN => "process {} ({})", "le processus {} ({})";
}

/// A transcript reason code (`out_of_range`, `downgraded:staggered`) in
/// words; an unknown code has its underscores turned into spaces.
pub fn reason(code: &str, lang: Lang) -> String {
    let (prefix, rest) = match code.strip_prefix("downgraded:") {
        Some(rest) => (Some(()), rest),
        None => (None, code),
    };
    let words = REASONS.iter().find(|(c, ..)| *c == rest).map(|&(_, en, fr)| match lang {
        Lang::En => en.to_string(),
        Lang::Fr => fr.to_string(),
    });
    let words = words.unwrap_or_else(|| rest.replace('_', " "));
    match (prefix, lang) {
        (Some(()), Lang::En) => format!("dropped: {words}"),
        (Some(()), Lang::Fr) => format!("abandonnée : {words}"),
        (None, _) => words,
    }
}

/// Reason codes of the engine (docs/rules/combat.md, tactics.md, effects.md,
/// maneuvers.md) and their words.
const REASONS: &[(&str, &str, &str)] = &[
    ("missing_target", "no target", "pas de cible"),
    ("no_weapon", "no weapon", "pas d'arme"),
    ("no_line_of_effect", "no line of effect", "pas de ligne d'effet"),
    ("out_of_range", "out of range", "hors de portée"),
    ("unreachable_destination", "destination out of reach", "destination hors d'atteinte"),
    ("weapon_unavailable", "weapon unavailable", "arme indisponible"),
    ("no_charge_path", "no clear charge line", "pas de ligne de charge dégagée"),
    (
        "cannot_combine",
        "a 5-foot step cannot be combined with movement",
        "un pas de placement ne se combine pas à un déplacement",
    ),
    ("actor_down", "the actor is down", "l'acteur est à terre"),
    ("action_economy", "no action left this turn", "plus d'action ce tour"),
    ("staggered", "staggered", "chancelant"),
    ("nauseated", "nauseated", "nauséeux"),
    ("pinned", "pinned", "immobilisé"),
    ("surprise", "surprise round", "round de surprise"),
    ("unsupported_kind", "action not played yet", "action pas encore jouée"),
    ("cannot_attack", "cannot attack", "ne peut pas attaquer"),
    ("cannot_move", "cannot move", "ne peut pas se déplacer"),
    ("cannot_run_or_charge", "cannot run or charge", "ne peut ni courir ni charger"),
    ("missing_maneuver", "no such maneuver", "manœuvre inconnue"),
    ("target_too_large", "target too large", "cible trop grande"),
    ("nothing_to_take", "nothing to take", "rien à prendre"),
    ("not_grappled", "not grappled", "pas agrippé"),
    ("invalid_trick_condition", "trick not possible", "astuce impossible"),
    ("nothing_to_retrieve", "nothing to retrieve", "rien à ramasser"),
    ("nothing_to_repair", "nothing to repair", "rien à réparer"),
    ("missing_feat", "feat missing", "don manquant"),
    ("not_prone", "not prone", "pas à terre"),
    ("already_prone", "already prone", "déjà à terre"),
    ("already_delayed", "already delayed", "déjà en attente"),
    ("delayed", "delayed", "en attente"),
    ("ready", "readied", "action préparée"),
    ("resting", "resting", "au repos"),
    ("run_stopped", "run stopped", "course interrompue"),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
    }

    #[test]
    fn the_locale_picks_french_in_posix_order() {
        assert_eq!(Lang::from_locale(env(&[])), Lang::En);
        assert_eq!(Lang::from_locale(env(&[("LANG", "fr_FR.UTF-8")])), Lang::Fr);
        assert_eq!(Lang::from_locale(env(&[("LANG", "fr_FR.UTF-8"), ("LC_MESSAGES", "en_US")])), Lang::En);
        assert_eq!(Lang::from_locale(env(&[("LANG", "en_US"), ("LC_ALL", "fr_CA.UTF-8")])), Lang::Fr);
        assert_eq!(Lang::from_locale(env(&[("LC_ALL", ""), ("LANG", "fr_BE")])), Lang::Fr);
        assert_eq!(Lang::from_locale(env(&[("LANG", "C.UTF-8")])), Lang::En);
    }

    #[test]
    fn french_typography_only_in_french() {
        for t in T::ALL {
            let (en, fr) = (t.en(), t.fr());
            assert!(!en.contains(" :") && !en.contains(" ;"), "{t:?}: English with French spacing: {en:?}");
            // A French colon or semicolon has a space before it (ratios such as 3/4 aside).
            for (i, c) in fr.char_indices() {
                if (c == ':' || c == ';')
                    && i > 0
                    && !fr[..i].ends_with(' ')
                    && !fr[..i].ends_with("downgraded")
                {
                    panic!("{t:?}: French without the space before {c:?}: {fr:?}");
                }
            }
            assert_eq!(en.matches("{}").count(), fr.matches("{}").count(), "{t:?}: placeholders differ");
        }
    }

    #[test]
    fn placeholders_are_filled_in_order() {
        assert_eq!(fill("{} of {}", &[&1, &"two"]), "1 of two");
        assert_eq!(fill("{} and {}", &[&1]), "1 and {}");
        assert_eq!(Lang::Fr.label(T::Map, "x"), "Carte : x");
        assert_eq!(Lang::En.label(T::Map, "x"), "Map: x");
    }

    #[test]
    fn reason_codes_read_as_words() {
        assert_eq!(reason("out_of_range", Lang::En), "out of range");
        assert_eq!(reason("out_of_range", Lang::Fr), "hors de portée");
        assert_eq!(reason("downgraded:staggered", Lang::En), "dropped: staggered");
        assert_eq!(reason("some_new_code", Lang::En), "some new code");
    }
}
