//! The language of everything pf1e shows a person, and the catalogue of its
//! words: every fixed text of the reports, tables and progress lines, in
//! English and French side by side, in this one place.
//!
//! The CLI's language is `--lang` when given, else the locale: the first
//! non-empty of `LC_ALL`, `LC_MESSAGES` and `LANG` (as POSIX orders them);
//! French when it starts with `fr`, English otherwise ([`Lang::from_locale`];
//! the CLI reads the variables). French text follows
//! French typography (a space before `:`); English text does not. Error
//! messages stay in English: they quote files, fields and flags.

use std::fmt::Display;

/// Language of the text reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Français.
    Fr,
}

impl Lang {
    /// Every language, in the order of their codes.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Fr];

    /// The language's code: `en`, `fr` (`--lang`, `?lang=` of the HTTP API).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }

    /// The language of a code, if it is one of [`Lang::code`]'s.
    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|l| l.code() == code)
    }

    /// The language of the locale variables read through `var`.
    pub fn from_locale(var: impl Fn(&str) -> Option<String>) -> Self {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].iter().find_map(|k| var(k).filter(|v| !v.is_empty()));
        match locale {
            Some(l) if l.starts_with("fr") => Lang::Fr,
            _ => Lang::En,
        }
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
    // ---- conditions (`pf1e_engine::effects::ConditionId`): English as the
    // data names them, French from the French SRD's terms ----
    CondShaken => "shaken", "secoué";
    CondSickened => "sickened", "fiévreux";
    CondFatigued => "fatigued", "fatigué";
    CondExhausted => "exhausted", "épuisé";
    CondEntangled => "entangled", "enchevêtré";
    CondDazzled => "dazzled", "ébloui";
    CondBlinded => "blinded", "aveuglé";
    CondDeafened => "deafened", "sourd";
    CondFlatFooted => "flat_footed", "pris au dépourvu";
    CondProne => "prone", "à terre";
    CondStunned => "stunned", "étourdi";
    CondParalyzed => "paralyzed", "paralysé";
    CondNauseated => "nauseated", "nauséeux";
    CondDazed => "dazed", "hébété";
    CondStaggered => "staggered", "chancelant";
    CondFrightened => "frightened", "effrayé";
    CondPanicked => "panicked", "paniqué";
    CondCowering => "cowering", "recroquevillé";
    CondHelpless => "helpless", "sans défense";
    CondFascinated => "fascinated", "fasciné";
    CondInvisible => "invisible", "invisible";
    CondBleeding => "bleeding", "saignement";
    CondConfused => "confused", "confus";
    CondBane => "bane", "imprécation";
    CondBlurred => "blurred", "flou";
    CondDisplaced => "displaced", "déplacement";
    CondGrappled => "grappled", "agrippé";
    CondPinned => "pinned", "immobilisé";
    CondAsleep => "asleep", "endormi";
    CondUnconscious => "unconscious", "inconscient";
    CondDisarmed => "disarmed", "désarmé";
    FxStrengthDamage => "Strength damage", "affaiblissement de Force";
    FxDexterityDamage => "Dexterity damage", "affaiblissement de Dextérité";
    FxConstitutionDamage => "Constitution damage", "affaiblissement de Constitution";
    FxNegativeLevels => "negative levels", "niveaux négatifs";
    FxMenaced => "menaced", "menacé";
    FxInspireCourage => "inspire courage", "inspiration vaillante";
    FxArcanePool => "arcane pool", "réserve arcanique";
    FxEvilEye => "evil eye", "mauvais œil";
    FxSlumber => "slumber", "sommeil";
    FxMisfortune => "misfortune", "infortune";
    FxFortune => "fortune", "fortune";
    FxWard => "ward", "protection";
    FxFearAura => "fear aura", "aura de terreur";
    FxParalyzingTouch => "paralyzing touch", "contact paralysant";
    FxMutagen => "mutagen", "mutagène";
    FxMutagenStrength => "mutagen (strength)", "mutagène (Force)";
    FxMutagenDexterity => "mutagen (dexterity)", "mutagène (Dextérité)";
    FxMutagenConstitution => "mutagen (constitution)", "mutagène (Constitution)";
    // ---- pf1e day: the adventuring day ----
    DayTitle => "=== Adventuring day: {} ===", "=== Journée d'aventure : {} ===";
    DayVerdict => "The party completes the day in {} of days; some PC dies in {} (3σ bands).",
        "Le groupe achève la journée dans {} des cas ; un PJ meurt dans {} (bandes 3σ).";
    DayBreaks => "The day breaks at {}: it ends there in {} of days, and a PC dies there in {}.",
        "La journée se brise à {} : elle s'y arrête dans {} des cas, et un PJ y meurt dans {}.";
    DayNoBreak => "No day broke and nobody died.", "Aucune journée ne s'est brisée et personne n'est mort.";
    DayFled => "The party withdrew in {} of days.", "Le groupe s'est retiré dans {} des cas.";
    DayRuns => "{} days, seed {}, {} encounters.", "{} journées, graine {}, {} rencontres.";
    DayColFight => "Encounter", "Rencontre";
    DayColReached => "Reached", "Atteinte";
    DayColWon => "Won", "Gagnée";
    DayColDeath => "A PC dies", "Un PJ meurt";
    DayColEndsHere => "Day ends here", "Fin ici";
    DayColHpBefore => "HP before", "PV avant";
    DayColSlotsBefore => "Slots before", "Sorts avant";
    DayColUsesBefore => "Uses before", "Usages avant";
    DayColStanding => "Standing before", "Debout avant";
    DayColRounds => "Rounds", "Rounds";
    DayColMember => "Member", "Membre";
    DayColDeadEnd => "Dead at the end", "Mort à la fin";
    DayColHpEnd => "HP at the end", "PV à la fin";
    DayBestPlan => "Best plan: {}, which completes the day in {} ({} points against the day as written).",
        "Meilleur plan : {}, qui achève la journée dans {} ({} points par rapport à la journée telle qu'écrite).";
    DayColPlan => "Plan", "Plan";
    DayTranscriptTitle => "=== Day {}, fight by fight ===", "=== Journée {}, combat par combat ===";
    DayTranscriptFight => "--- {} (the party enters with {}/{} hit points, {} spell slots) ---",
        "--- {} (le groupe entre avec {}/{} PV, {} emplacements de sorts) ---";
    DayTranscriptAid => "After the fight: {} dying stabilized, {} died of their wounds, {} spell slots spent on the dying.",
        "Après le combat : {} mourants stabilisés, {} morts de leurs blessures, {} emplacements dépensés pour les mourants.";
    DayTranscriptEnd => "End of the day: {}; {} dead; {} hit points healed during rests.",
        "Fin de la journée : {} ; {} morts ; {} PV soignés pendant les repos.";
    DayEndCompleted => "completed", "achevée";
    DayEndFled => "the party withdrew", "le groupe s'est retiré";
    DayEndDefeated => "defeated at {}", "vaincu à {}";
    DayColCompletes => "Completes the day", "Achève la journée";
    DayColChange => "Change", "Écart";
    DayAsWritten => "the day as written", "la journée telle qu'écrite";
    DayPlansNote => "Changes in points against the day as written, on the same dice; * told apart from none (3σ, Bonferroni over the plans).",
        "Écarts en points par rapport à la journée telle qu'écrite, sur les mêmes dés ; * distingué de zéro (3σ, Bonferroni sur les plans).";
    DayBetween => "Between fights, per day: {} hit points healed, {} spell slots and {} wand charges spent on healing.",
        "Entre les combats, par journée : {} PV soignés, {} emplacements de sorts et {} charges de baguette dépensés en soins.";
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
    PartyStrategy => "Party's strategy", "Stratégie du groupe";
    AdversaryStrategy => "Adversaries' strategy", "Stratégie des adversaires";
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
    ContribTitle => "Who carries the fight (per combatant; the party without it, same dice)",
        "Qui porte le combat (par combattant ; le groupe sans lui, mêmes dés)";
    ColDmgRound => "Damage/round", "Dégâts/round";
    ColHealBattle => "Healing/battle", "Soins/combat";
    ColCondBattle => "Conditions/battle", "États/combat";
    ColWinWithout => "Party wins without", "Victoire du groupe sans";
    ColDeathWithout => "A PC dies without", "Un PJ meurt sans";
    ContribNone => "Who carries the fight: no battle without a party member to compare (every party member is alone on its side).",
        "Qui porte le combat : aucun combat sans un membre du groupe à comparer (le groupe n'a qu'un membre).";
    ContribPlans => "The party plays {}; the other sides play {}.", "Le groupe joue {} ; les autres camps jouent {}.";
    ContribNote => "Change against the full encounter in points; * told apart from no change (paired, {} confidence, Bonferroni over the removals); — the last of its side: no battle without it.",
        "Écart à la rencontre complète en points ; * distingué de l'absence d'écart (apparié, confiance {}, Bonferroni sur les retraits) ; — le dernier de son camp : pas de combat sans lui.";

    // ---- design: encounters built to a target ----
    DesignAnswer => "{} encounters hit the target ({}) for APL {}; the best: {} — {}.",
        "{} rencontres atteignent la cible ({}) pour un NMG de {} ; la meilleure : {} — {}.";
    DesignAnswerOne => "1 encounter hits the target ({}) for APL {}: {} — {}.",
        "1 rencontre atteint la cible ({}) pour un NMG de {} : {} — {}.";
    DesignNone => "No candidate hit the target ({}) for APL {}; the nearest: {} — {}.",
        "Aucun candidat n'atteint la cible ({}) pour un NMG de {} ; le plus proche : {} — {}.";
    DesignNothing => "No candidate was measured.", "Aucun candidat mesuré.";
    DesignGap => "the book says {}, the simulation says {}", "le livre dit {}, la simulation dit {}";
    DesignSame => "the book and the simulation both say {}", "le livre et la simulation disent tous deux {}";
    DesignNoCr => "no CR by the book, the simulation says {}", "aucun FP selon le livre, la simulation dit {}";
    DesignSearch => "Pool of {} monsters; {} groups with an encounter CR from APL{} to APL{}; {} candidates measured; intervals at {} confidence.",
        "Réserve de {} monstres ; {} groupes de FP de rencontre entre NMG{} et NMG{} ; {} candidats mesurés ; intervalles à {} de confiance.";
    DesignFiles => "Each proposal: its monster files, its best party plan and its battle worth reading, for pf1e sim (paths from the sweep file's folder):",
        "Chaque proposition : ses fichiers de monstres, le meilleur plan du groupe et le combat à lire, pour pf1e sim (chemins depuis le dossier du fichier de balayage) :";
    DesignAtHp => "at {} HP", "à {} des PV";
    DesignPlanBetter => "best party plan: {}, P(a PC dies) {}, {} points against the party's own play [{}, {}]{} ({} plans measured)",
        "meilleur plan du groupe : {}, P(un PJ meurt) {}, {} points par rapport au jeu du groupe [{}, {}]{} ({} plans mesurés)";
    DesignPlanOwn => "best party plan: its own ({}), P(a PC dies) {}; none of {} single-lever plans does better",
        "meilleur plan du groupe : le sien ({}), P(un PJ meurt) {} ; aucun des {} plans à un levier ne fait mieux";
    DesignToldApart => ", told apart", ", distingué";
    DesignWorth => "battle worth reading: run {} of {} (the worst decile: {} HP lost{}):",
        "combat à lire : partie {} sur {} (le pire décile : {} PV perdus{}) :";
    DesignWorthDeath => ", a PC died", ", un PJ meurt";
    DesignWorthWipe => ", everyone down", ", tous à terre";
    DesignCalibration => "The book's labels against the simulation, over every candidate measured (P(a PC dies)):",
        "Les étiquettes du livre face à la simulation, sur tous les candidats mesurés (P(un PJ meurt)) :";
    ColCandidates => "Candidates", "Candidats";
    ColMedianPcDies => "Median", "Médiane";
    ColRange => "Range", "Étendue";
    ColSimulationSays => "The simulation says", "La simulation dit";
    DesignConfirmed => "confirmed", "confirmée";
    DesignInside => "inside", "dedans";
    DesignDropped => "dropped", "écarté";
    DesignOutside => "outside", "dehors";
    ColMonsters => "Monsters", "Monstres";
    ColCrXp => "CR (XP)", "FP (XP)";
    ColBook => "Book", "Livre";
    ColSimulated => "Simulation", "Simulation";
    ColHpLostShare => "HP lost", "PV perdus";
    ColWinShort => "P(win)", "P(victoire)";

    // ---- difficulty: by the book (Core Rulebook, Gamemastering) and by simulation ----
    DiffEasy => "easy", "facile";
    DiffAverage => "average", "moyenne";
    DiffChallenging => "challenging", "difficile";
    DiffHard => "hard", "très difficile";
    DiffEpic => "epic", "épique";
    DiffBook => "Difficulty by the book: {} — encounter CR {} ({} XP) against APL {} (CR − APL = {})",
        "Difficulté selon le livre : {} — FP de la rencontre {} ({} XP) contre NMG {} (FP − NMG = {})";
    DiffBookNoCr => "Difficulty by the book: none — the foes total {} XP, below CR 1/8, against APL {}",
        "Difficulté selon le livre : aucune — les adversaires totalisent {} XP, moins que FP 1/8, contre NMG {}";
    DiffAplPcs => "APL: the {} PCs of {}", "NMG : les {} PJ de {}";
    DiffAplNoPc => "APL: the levels of the {} members of {} (no PC)", "NMG : les niveaux des {} membres de {} (aucun PJ)";
    DiffUnrated => "foes without a CR, not counted: {}", "adversaires sans FP, non comptés : {}";
    DiffSimulated => "Simulated for {}: win {}, a PC dies {}, everyone down {}, HP lost {} ({} of the party's)",
        "Simulé pour {} : victoire {}, un PJ meurt {}, tous à terre {}, PV perdus {} ({} de ceux du groupe)";
    DiffSimulatedCell => "Simulated for {} (both sides' default plans, full hit points, {} battles): win {}, a PC dies {}, everyone down {}, HP lost {} ({} of the party's)",
        "Simulé pour {} (plans par défaut des deux camps, PV au maximum, {} combats) : victoire {}, un PJ meurt {}, tous à terre {}, PV perdus {} ({} de ceux du groupe)";
    DiffResources => "; resources spent per battle: {} spell slots, {} class-ability uses (channels, hexes, grit, arcane pool, performance rounds, smites), {} consumables (potions, wand charges)",
        " ; ressources dépensées par combat : {} emplacements de sort, {} utilisations de capacités de classe (canalisations, maléfices, panache, réserve arcanique, rounds de représentation, châtiments), {} consommables (potions, charges de baguette)";
    DiffFled => ", fled {}", ", fuite {}";
    DiffWords => "a PC dies: some member of the party dead at the end; everyone down (TPK): every member dying or dead",
        "un PJ meurt : un membre du groupe au moins mort à la fin ; tous à terre (TPK) : chaque membre mourant ou mort";

    // ---- the transcript ----
    TranscriptTitle => "=== First combat ===", "=== Déroulé du premier combat ===";
    ColRound => "Round", "Round";
    ColMessage => "Message", "Message";

    // ---- the transcript's events (render::events; the engine's typed
    // events, issue 18). Kept together so that merges stay easy. ----
    EvInitiative => "initiative: {} d20={}={}", "initiative : {} d20={}={}";
    EvRollOff => ", roll-off d20={}", ", départage d20={}";
    EvBattleWon => "battle over: {} win in {} {}", "fin du combat : victoire de {} en {} {}";
    EvBattleNoneStanding => "battle over: no side standing after {} {}", "fin du combat : plus aucun camp debout après {} {}";
    EvBattleDraw => "battle over: draw after {} {}", "fin du combat : match nul après {} {}";
    EvBattleHeld => "battle over: {} hold the field after {} {}, the others fled", "fin du combat : {} reste maître du terrain après {} {}, les autres ont fui";
    EvMove => "move {}", "déplacement {}";
    EvCharge => "charge {}", "charge {}";
    EvRun => "run {}", "course {}";
    EvWithdraw => "withdraw {}", "retraite {}";
    EvRestrictedWithdraw => "restricted withdraw {}", "retraite limitée {}";
    EvEngulfMove => "engulf {}", "engloutissement {}";
    EvTrampleMove => "trample {}", "piétinement {}";
    EvStep => "5-foot step {}->{}", "pas de placement {}->{}";
    EvAlreadyInPosition => "move: already in position at {}", "déplacement : déjà en position en {}";
    EvCannotProgress => "move: cannot progress from {}", "déplacement : impossible d'avancer depuis {}";
    EvRunBlocked => "run: blocked at {}", "course : bloquée en {}";
    EvNowhereFarther => "withdraw: nowhere farther to go from {}", "retraite : nulle part où reculer depuis {}";
    EvFallsBack => "falls back to {}", "est repoussé en {}";
    EvFailed => "{} failed ({})", "{} échoue ({})";
    EvDropped => "{} dropped ({})", "{} abandonnée ({})";
    EvDies => "dies (hp {})", "meurt (pv {})";
    EvDestroyed => "is destroyed (hp {})", "est détruit (pv {})";
    EvDisabled => "is disabled (hp 0)", "est hors de combat (pv 0)";
    EvDying => "falls unconscious, dying (hp {})", "tombe inconscient, mourant (pv {})";
    EvDyingAgain => "is wounded again, dying (hp {})", "est blessé de nouveau, mourant (pv {})";
    EvFightsOn => "fights on below 0, staggered (ferocity) (hp {})", "se bat encore sous 0, chancelant (férocité) (pv {})";
    EvWeakens => "loses 1 hp to ferocity (hp {})", "perd 1 pv à cause de la férocité (pv {})";
    EvBleedingNoStabilization => "bleeding: stabilization fails (hp {}->{})", "saigne : la stabilisation échoue (pv {}->{})";
    EvStabilization => "stabilization d20={}{}={} vs DC {}", "stabilisation d20={}{}={} contre DD {}";
    EvStable => " -> stable", " -> stabilisé";
    EvStabilizationFails => " -> fails (hp {}->{})", " -> échec (pv {}->{})";
    EvStrains => "strains while disabled (hp 0->-1)", "force alors qu'il est hors de combat (pv 0->-1)";
    EvAoO => "AoO: ", "AdO : ";
    EvAttackRoll => "{} vs {} d20={}={} {} {}", "{} contre {} d20={}={} {} {}";
    EvAc => "AC", "CA";
    EvTouchAc => "touch AC", "CA de contact";
    EvNatural1 => " natural 1", " 1 naturel";
    EvNatural20 => " natural 20", " 20 naturel";
    EvMissed => " -> MISS", " -> RATÉ";
    EvMisfire => " -> MISS, MISFIRE (broken)", " -> RATÉ, ENRAYÉE (cassée)";
    EvHit => " -> HIT", " -> TOUCHÉ";
    EvThreat => " -> HIT, threat: confirm d20={}={} -> {},", " -> TOUCHÉ, menace : confirmation d20={}={} -> {},";
    EvTouchThreat => " threat: confirm d20={}={} -> {}", " menace : confirmation d20={}={} -> {}";
    EvCrit => "CRIT x{}", "CRITIQUE x{}";
    EvNoCrit => "no crit", "pas de critique";
    EvConcealment => " concealment {}%: d100={} -> {}", " camouflage {} % : d100={} -> {}";
    EvAttackerBlinded => " attacker blinded {}%: d100={} -> {}", " attaquant aveuglé {} % : d100={} -> {}";
    EvBlindFight => ", Blind-Fight reroll d100={} -> {}", ", relance de Combat en aveugle d100={} -> {}";
    EvMissWord => "MISS", "RATÉ";
    EvHitsWord => "hits", "touche";
    EvImage => " an image is attacked (1d{}={})", " une image est attaquée (1d{}={})";
    EvImageDestroyed => ", destroyed ({} left)", ", détruite ({} restantes)";
    EvSneakAttack => " sneak attack +{}d6", " attaque sournoise +{}d6";
    EvUpClose => " up close and deadly +{}d6", " à bout portant +{}d6";
    EvVitalStrike => " vital strike x{} dice", " frappe décisive dés x{}";
    EvManyshot => " manyshot second arrow {}", " tir multiple, deuxième flèche {}";
    EvDamage => " {} dmg", " {} dégâts";
    EvRolled => " (rolled {})", " (jet {})";
    EvHp => " (hp {}->{})", " (pv {}->{})";
    EvHpTemp => " (hp {}->{}, {} on temporary hp)", " (pv {}->{}, {} sur les pv temporaires)";
    EvTouch => "touch", "contact";
    EvRangedTouch => "ranged touch", "contact à distance";
    EvRay => "ray", "rayon";
    EvModIterative => "iterative", "attaque itérative";
    EvModCharge => "charge", "charge";
    EvModFlanking => "flanking", "prise en tenaille";
    EvModHighGround => "high ground", "surplomb";
    EvModRange => "range", "portée";
    EvModCover => "cover", "abri";
    EvModTargetCharged => "target charged", "cible en charge";
    EvModIntoMelee => "into melee", "dans la mêlée";
    EvModProne => "prone", "à terre";
    EvModDefensive => "fighting defensively", "combat sur la défensive";
    EvModAided => "aided", "aidé";
    EvModPowerAttack => "power attack", "attaque en puissance";
    EvModInvisible => "invisible", "invisible";
    EvModTargetHelpless => "target helpless", "cible sans défense";
    EvModTargetProne => "target prone", "cible à terre";
    EvModDodge => "dodge", "esquive";
    EvModTargetAided => "target aided", "cible aidée";
    EvModDeadlyAim => "deadly aim", "tir mortel";
    EvModCombatExpertise => "combat expertise", "expertise du combat";
    EvModRapidShot => "rapid shot", "tir rapide";
    EvModTwoWeapon => "two weapons", "combat à deux armes";
    EvModTargetCleaving => "target cleaving", "cible en enchaînement";
    EvModTargetNoShield => "target without shield", "cible sans bouclier";
    EvModTargetRusted => "target's rusted armor", "armure rouillée de la cible";
    EvModFavoredEnemy => "favored enemy", "ennemi juré";
    EvModHuntersBond => "hunter's bond", "lien du chasseur";
    EvModFlurry => "flurry of blows", "déluge de coups";
    EvModTrample => "against a trample", "contre un piétinement";
    EvModTargetChallenging => "target challenging", "cible lançant un défi";
    EvModSmite => "smite", "châtiment";
    EvModTargetSmiting => "target smiting", "cible en châtiment";
    EvTargetRunning => "target running, no Dex", "cible en course, sans Dex";
    EvTargetDeniedDex => "target denied Dex", "cible privée de Dex";
    EvAttackerConditions => "attacker {}", "attaquant {}";
    EvAttackerEffects => "attacker under {}", "attaquant sous {}";
    EvTargetConditions => "target {}", "cible {}";
    EvTargetEffects => "target under {}", "cible sous {}";
    EvSurprised => "surprised: does not act", "surpris : n'agit pas";
    EvDelaysBefore => "delays until just before {}", "retarde son action jusque juste avant {}";
    EvDelaysEnd => "delays until the end of the round", "retarde son action jusqu'à la fin du round";
    EvActsAfterDelay => "acts after delaying", "agit après avoir retardé";
    EvReadies => "readies an attack ({})", "prépare une attaque ({})";
    EvReadiedSetOff => "readied attack set off ({})", "attaque préparée déclenchée ({})";
    EvReadiedFailed => "readied attack failed ({})", "l'attaque préparée échoue ({})";
    EvReadyExpired => "ready expired (trigger never occurred)", "action préparée expirée (jamais déclenchée)";
    EvBleeds => "bleeds {} (hp {}->{})", "saigne de {} (pv {}->{})";
    EvStartsBleeding => "is bleeding ({} per turn)", "saigne ({} par tour)";
    EvStopsBleeding => "stops bleeding", "cesse de saigner";
    EvRecurringDamage => "takes {} from {}", "subit {} de {}";
    EvStandsUp => "stands up", "se relève";
    EvDropsProne => "drops prone", "se jette à terre";
    EvTotalDefense => "total defense (+{} dodge AC)", "défense totale (+{} CA d'esquive)";
    EvFightsDefensively => "fights defensively ({} attack, +{} dodge AC)", "combat sur la défensive ({} à l'attaque, +{} CA d'esquive)";
    EvRapidShot => "rapid shot ({} on every attack, one more shot)", "tir rapide ({} à chaque attaque, un tir de plus)";
    EvDeadlyAim => "deadly aim ({} ranged attack, +{} damage)", "tir mortel ({} à l'attaque à distance, +{} aux dégâts)";
    EvCombatExpertise => "combat expertise ({} melee attack and CMB, +{} dodge AC)", "expertise du combat ({} à l'attaque au corps à corps et au BMO, +{} CA d'esquive)";
    EvTwoWeapon => "fights with two weapons ({} main hand, {} off hand)", "combat à deux armes ({} main directrice, {} main secondaire)";
    EvCleave => "cleave ({} AC)", "enchaînement ({} CA)";
    EvFlurry => "flurry of blows ({} on every attack, more attacks)", "déluge de coups ({} à chaque attaque, des attaques de plus)";
    EvCasts => "casts {}", "lance {}";
    EvDrinksExtract => "drinks an extract of {} (level {} extract)", "boit un extrait de {} (extrait de niveau {})";
    EvCastsOn => " on {}", " sur {}";
    EvCastsAt => " at {}", " en {}";
    EvCastsCantrip => " (cantrip, DC {})", " (sort mineur, DD {})";
    EvCastsSlot => " (level {} slot, DC {})", " (emplacement de niveau {}, DD {})";
    EvCastsCantripNoSave => " (cantrip)", " (sort mineur)";
    EvCastsSlotNoSave => " (level {} slot)", " (emplacement de niveau {})";
    EvMetaEmpowered => "empowered", "à effet augmenté";
    EvMetaMaximized => "maximized", "à effet maximisé";
    EvMetaExtended => "extended", "à durée étendue";
    EvMetaHeightened => "heightened", "intensifié";
    EvMetaQuickened => "quickened", "à incantation rapide";
    EvSummoned => "is summoned at {} for {} round(s) (hp {})", "est convoqué en {} pour {} round(s) (pv {})";
    EvSummonEnds => "vanishes (its summoning ends)", "disparaît (sa convocation prend fin)";
    EvLeavesBattle => "leaves the battle at {} with {} hp", "quitte le combat en {} avec {} pv";
    EvNoRoomToSummon => "{}: no free square for the summoned creature", "{} : aucune case libre pour la créature convoquée";
    EvBeginsCasting => "begins casting {} (takes effect before its next turn)", "commence à lancer {} (effet avant son prochain tour)";
    EvFinishesCasting => "finishes casting {}", "achève de lancer {}";
    EvSpellLostCannotAct => "{} is lost (cannot act)", "{} est perdu (ne peut pas agir)";
    EvSpellLostConcentration => "{} is lost", "{} est perdu";
    EvSpellFizzles => "{} fizzles", "{} échoue";
    EvSpellLostNoTarget => "{} has no valid target any more and is lost", "{} n'a plus de cible valide et est perdu";
    EvHoldsCharge => "holds the charge of {}", "garde la charge de {}";
    EvCoupDeGrace => "coup de grace with {} on {}: {} damage, hp {} -> {}", "coup de grâce avec {} sur {} : {} dégâts, pv {} -> {}";
    EvCoupDeGraceSave => "Fort save d20={}={} vs DC {} -> {}", "jet de Vigueur d20={}={} contre DD {} -> {}";
    EvSurvives => "survives", "survit";
    EvDiesOfIt => "dies", "meurt";
    EvGivesUpPrepared => "gives up {} to cast {}", "renonce à {} pour lancer {}";
    EvChargeDissipates => "the held charge of {} dissipates", "la charge gardée de {} se dissipe";
    EvConcentration => "concentration ({}) d20={}={} vs DC {} -> {}", "concentration ({}) d20={}={} contre DD {} -> {}";
    EvConcentrationGrappled => "grappled", "agrippé";
    EvConcentrationDefensive => "casting defensively", "incantation sur la défensive";
    EvConcentrationWounded => "wounded while casting", "blessé pendant l'incantation";
    EvConcentrationEntangled => "entangled", "enchevêtré";
    EvSucceeds => "succeeds", "réussit";
    EvReloads => "reloads {}", "recharge {}";
    EvReloadsLeft => "reloads {} ({} shots left)", "recharge {} (reste {} tirs)";
    EvDrawsFlask => "takes out a flask of {} ({} left)", "sort une fiole de {} (reste {})";
    EvMisdirected => "{} misses and lands {} square(s) off (d8={}) at ({}, {})", "{} manque et tombe à {} case(s) (d8={}) en ({}, {})";
    EvSplash => "splashed by {}'s {}: {} (hp {}->{})", "éclaboussé par {} de {} : {} (pv {}->{})";
    EvAltitude => "altitude {} ft -> {} ft", "altitude {} pieds -> {} pieds";
    EvFlyCheck => "Fly check d20={}={} vs DC {} -> {}", "test de Vol d20={}={} contre DD {} -> {}";
    EvEscapeCheck => "{} against {} d20={}={} vs DC {} -> {}", "{} contre {} d20={}={} contre DD {} -> {}";
    EvEscapeArtist => "Escape Artist check", "test d'Évasion";
    EvEscapeStrength => "Strength check", "test de Force";
    EvEscapeCmb => "combat maneuver check", "test de manœuvre offensive";
    EvEscapeAcrobatics => "Acrobatics check", "test d'Acrobaties";
    EvEscapes => "breaks free", "se libère";
    EvStaysBound => "still caught", "reste pris";
    EvMovesOn => "moves on", "avance";
    EvStopped => "stopped", "arrêté";
    EvStoppedAt => "stopped at ({}, {})", "arrêté en ({}, {})";
    EvFalls => "falls from {} ft ({}): {} ft, {} damage", "tombe de {} pieds ({}) : {} pieds, {} dégâts";
    EvFallHelpless => "helpless", "sans défense";
    EvAura => "meets {}'s {}: {}", "subit l'aura de {} ({}) : {}";
    EvAuraImmune => "immune", "immunisé";
    EvAuraSaved => "saves", "résiste";
    EvAuraRounds => "{} for {} rounds", "{} pendant {} rounds";
    EvFallProne => "knocked prone", "jeté à terre";
    EvFallFlightEnded => "flight ended", "fin du vol";
    EvFallFailedCheck => "failed Fly check", "test de Vol raté";
    EvFails => "fails", "échoue";
    EvChannelPositiveHeals => "channels positive energy ({}d6, heals), {} creature(s) in 30 ft", "canalise l'énergie positive ({}d6, soigne), {} créature(s) à 9 m";
    EvChannelPositiveHarms => "channels positive energy ({}d6, harms), {} creature(s) in 30 ft", "canalise l'énergie positive ({}d6, blesse), {} créature(s) à 9 m";
    EvChannelNegativeHeals => "channels negative energy ({}d6, heals), {} creature(s) in 30 ft", "canalise l'énergie négative ({}d6, soigne), {} créature(s) à 9 m";
    EvChannelNegativeHarms => "channels negative energy ({}d6, harms), {} creature(s) in 30 ft", "canalise l'énergie négative ({}d6, blesse), {} créature(s) à 9 m";
    EvHealed => "heals {} (hp {}->{})", "récupère {} (pv {}->{})";
    EvChallenges => "challenges {} (+{} damage, +{} dodge AC against it; {} left)", "défie {} (+{} aux dégâts, +{} d'esquive contre lui ; {} restant(s))";
    EvChallengeEnds => "challenge of {} ends", "fin du défi lancé à {}";
    EvTactician => "tactician: {} to {} ally(ies) for {} rounds", "tacticien : {} à {} allié(s) pour {} rounds";
    EvDrinksPotion => "drinks a potion of {} ({} left)", "boit une potion de {} (il en reste {})";
    EvGivesPotion => "gives a potion of {} to {} ({} left)", "fait boire une potion de {} à {} (il en reste {})";
    EvUsesWand => "uses a wand of {} on {} ({} charges left)", "utilise une baguette de {} sur {} ({} charges restantes)";
    EvReadsScroll => "reads a scroll of {} on {} ({} left)", "lit un parchemin de {} sur {} (il en reste {})";
    EvItemCheck => "{} check ({}) d20={}={} vs DC {} -> {}", "test de {} ({}) d20={}={} contre DD {} -> {}";
    EvItemCheckUmd => "Use Magic Device", "Utilisation d'objets magiques";
    EvItemCheckCasterLevel => "caster level", "niveau de lanceur de sorts";
    EvItemCheckWisdom => "Wisdom against a mishap", "Sagesse contre un incident";
    EvItemMishap => "mishap ({}): {} dmg to itself (hp {}->{})", "incident ({}) : {} dégâts à lui-même (pv {}->{})";
    EvSmitesEvil => "smites evil {} (+{} attack, +{} damage, +{} deflection AC against it; {} left)", "châtie le mal : {} (+{} à l'attaque, +{} aux dégâts, +{} de parade contre lui ; {} restant(s))";
    EvSmitesGood => "smites good {} (+{} attack, +{} damage, +{} deflection AC against it; {} left)", "châtie le bien : {} (+{} à l'attaque, +{} aux dégâts, +{} de parade contre lui ; {} restant(s))";
    EvRages => "rages (+4 Str, +4 Con: +{} hp, +{} Will, -2 AC; {} rounds left)", "entre en rage (+4 For, +4 Con : +{} pv, +{} Vol, -2 CA ; {} rounds restants)";
    EvRageEnds => "rage ends after {} round(s) (-{} hp), fatigued for {} rounds", "fin de la rage après {} round(s) (-{} pv), fatigué pour {} rounds";
    EvLaysOnHandsSelf => "lays on hands: {}d6={}, heals {} ({} left)", "impose les mains : {}d6={}, soigne {} (il en reste {})";
    EvLaysOnHands => "lays on hands on {}: {}d6={}, heals {} ({} left)", "impose les mains à {} : {}d6={}, soigne {} (il en reste {})";
    EvLaysOnHandsHarms => "lays on hands to harm {}: {}d6={} ({} left)", "impose les mains pour blesser {} : {}d6={} (il en reste {})";
    EvMercyRemoves => "; its mercies end {}", " ; ses grâces mettent fin à : {}";
    EvRebukesDeath => "rebukes death on {}: 1d4+{}={}, heals {} to {} hp ({} left)", "repousse la mort pour {} : 1d4+{}={}, soigne {} à {} pv (il en reste {})";
    EvKiAttack => "spends ki: one more flurry attack ({} left)", "dépense du ki : une attaque de plus dans le déluge (il en reste {})";
    EvKiDodge => "spends ki: +4 dodge AC ({} left)", "dépense du ki : +4 d'esquive à la CA (il en reste {})";
    EvStunningFist => "stunning fist on {} (Fort DC {}): {} ({} left)", "coup étourdissant sur {} (Vig DD {}) : {} (il en reste {})";
    EvStunMissed => "missed", "raté";
    EvStunNoDamage => "no damage", "aucun dégât";
    EvStunDown => "the target is down", "la cible est à terre";
    EvStunImmune => "cannot be stunned", "ne peut être étourdi";
    EvStunSaved => "saved", "sauvegarde réussie";
    EvStunStunned => "stunned", "étourdi";
    EvHuntersBond => "hunter's bond against {}: +{} attack and damage to {} ally(ies) for {} round(s)", "lien du chasseur contre {} : +{} à l'attaque et aux dégâts pour {} allié(s) pendant {} round(s)";
    EvLionsCall => "lion's call: {} ally(ies), +{} attack, +{} saves vs fear, {} rounds", "appel du lion : {} allié(s), +{} à l'attaque, +{} aux jets contre la terreur, {} rounds";
    EvTriggerEnemyEntersReach => "when an enemy comes within reach", "un ennemi entre dans l'allonge";
    EvTriggerEnemyAttacks => "when an enemy attacks", "un ennemi attaque";
    EvTriggerEnemyHitsAlly => "when an enemy hits an ally", "un ennemi touche un allié";
    EvTriggerEnemyCasts => "when an enemy casts", "un ennemi lance un sort";
    // The last of the text shim (issue 18): maneuvers, afflictions, spells,
    // effects, turns, class abilities, smaller combat rules.
    EvManeuverRoll => "{} vs {} CMB d20={}={} vs CMD {}", "{} contre {} BMO d20={}={} contre DMD {}";
    EvManeuverAooDamage => " [AoO damage -{}]", " [dégâts de l'AdO -{}]";
    EvManeuverSuccess => " -> success", " -> réussite";
    EvManeuverFailure => " -> failure", " -> échec";
    EvManTrip => "trip", "croc-en-jambe";
    EvManDisarm => "disarm", "désarmement";
    EvManBullRush => "bull_rush", "bousculade";
    EvManSunder => "sunder", "destruction";
    EvManGrapple => "grapple", "lutte";
    EvManEscape => "escape", "évasion";
    EvManOverrun => "overrun", "renversement";
    EvManDirtyTrick => "dirty_trick", "sale coup";
    EvManSteal => "steal", "vol";
    EvManReposition => "reposition", "repositionnement";
    EvManDrag => "drag", "traînée";
    EvManTooLarge => "{} on {} rejected (target too large)", "{} sur {} refusé (cible trop grande)";
    EvManNotATrick => "dirty trick: {} is not a dirty trick condition", "sale coup : {} n'est pas un état de sale coup";
    EvManLostToAoo => "{} lost (fell to the attack of opportunity)", "{} perdu (tombé sous l'attaque d'opportunité)";
    EvManTripped => "is tripped: prone", "est renversé : à terre";
    EvManFailsAndFalls => "fails by 10 or more and falls prone", "échoue de 10 ou plus et tombe à terre";
    EvManDrops => "drops its {}", "lâche son arme ({})";
    EvManFailsAndDrops => "fails by 10 or more and drops its {}", "échoue de 10 ou plus et lâche son arme ({})";
    EvManSundered => "its {} takes {} damage", "son arme ({}) subit {} dégâts";
    EvManBroken => ": broken", " : brisée";
    EvManPushed => "is pushed {} ft", "est repoussé de {} pieds";
    EvManRepositioned => "is repositioned {} ft", "est déplacé de {} pieds";
    EvManDragged => "is dragged {} ft", "est traîné sur {} pieds";
    EvManSteals => "steals a carried item from {}", "vole un objet porté par {}";
    EvManGrappleNoRoom => "grapple FAILED (no adjacent space)", "lutte RATÉE (aucune case adjacente libre)";
    EvManGrapplePulls => "grapple pulls {} to {}", "la lutte attire {} en {}";
    EvManGrappled => "is grappled by {}", "est agrippé par {}";
    EvManOverruns => "overruns {} to {}", "renverse {} et passe en {}";
    EvManOverrunsBlocked => "overruns {} but the square beyond is taken", "renverse {} mais la case au-delà est occupée";
    EvManKnockedProne => "is knocked prone", "est jeté à terre";
    EvManEscapes => "escapes the grapple", "se libère de la lutte";
    EvManNoLongerGrappled => "is no longer grappled", "n'est plus agrippé";
    EvAflImmune => "is immune to {}", "est immunisé contre {}";
    EvAflStrikes => "{} on {}", "{} sur {}";
    EvAflParalyzedFor => "is paralyzed for {} rounds", "est paralysé pendant {} rounds";
    EvAflParalyzed => "is paralyzed", "est paralysé";
    EvAflAsleepFor => "falls asleep for {} rounds", "s'endort pendant {} rounds";
    EvAflAsleep => "falls asleep", "s'endort";
    EvAflPetrified => "is turned to stone", "est changé en pierre";
    EvAflAbilityDamage => "takes {} {} damage ({} left)", "subit {} points d'affaiblissement de {} (reste {})";
    EvAflDiesOfConstitution => "dies (Constitution 0)", "meurt (Constitution 0)";
    EvAflNegativeLevels => "gains {} negative level(s) ({} in all)", "gagne {} niveau(x) négatif(s) ({} en tout)";
    EvAflDiesOfNegativeLevels => "dies ({} negative levels, {} Hit Dice)", "meurt ({} niveaux négatifs, {} dés de vie)";
    EvAflTemporaryHp => "gains {} temporary hp", "gagne {} pv temporaires";
    EvAflAnotherDose => "takes another dose of {} ({} rounds, DC {})", "reçoit une autre dose de {} ({} rounds, DD {})";
    EvAflPoisoned => "is poisoned by {}", "est empoisonné par {}";
    EvAflCured => "is cured of {}", "est guéri de {}";
    EvAflGazeAverted => "averts its eyes from {}'s {} (d100={})", "détourne les yeux du regard de {} ({}) (d100={})";
    EvAflGazeMet => "meets {}'s {} (d100={})", "croise le regard de {} ({}) (d100={})";
    EvAflBreath => "{} at {} ({} damage, Reflex DC {}; catches {}; again in round {})", "{} sur {} ({} dégâts, Réflexes DD {} ; atteint {} ; de nouveau au round {})";
    EvNobody => "nobody", "personne";
    EvAflNoDamage => "takes no damage", "ne subit aucun dégât";
    EvAflRends => "{} {}", "{} sur {}";
    EvAflCatchesFire => "catches fire ({} rounds)", "prend feu ({} rounds)";
    EvAflMaintainsHold => "maintains its hold on {}", "maintient sa prise sur {}";
    EvAflLetsGo => "lets go of {}", "lâche {}";
    EvAflPins => "pins {}", "immobilise {}";
    EvAflUses => "uses {}", "utilise {}";
    EvAflRustsBroken => "{}: the {} is broken (AC bonus {})", "{} : {} est brisé (bonus à la CA {})";
    EvAflRustsDestroyed => "{}: the {} falls to rust (AC bonus {})", "{} : {} tombe en rouille (bonus à la CA {})";
    EvAflNegativeEnergyHeals => "negative energy heals {}", "l'énergie négative soigne {}";
    EvAflIncorporealHalved => "incorporeal: damage halved ({} -> {})", "intangible : dégâts réduits de moitié ({} -> {})";
    EvAflIncorporealNone => "incorporeal: damage none from a nonmagical weapon ({} -> {})", "intangible : aucun dégât d'une arme non magique ({} -> {})";
    EvAflRegenerationStopped => "regeneration stopped (by {}) through round {}", "régénération interrompue (par {}) jusqu'au round {}";
    EvAflTheHit => "the hit", "le coup";
    EvAflHeals => "heals {} (hp {}->{}, nonlethal {}->{})", "récupère {} (pv {}->{}, non létaux {}->{})";
    EvAflRegenerationNonlethal => "regeneration: the {} damage is nonlethal", "régénération : les {} dégâts sont non létaux";
    EvAflSwallows => "{}: swallows {}", "{} : avale {}";
    EvAflCutsInside => "cuts inside d20={}+{}={} vs AC {}: {} damage ({}/{} to get free)", "taille de l'intérieur d20={}+{}={} contre CA {} : {} dégâts ({}/{} pour se libérer)";
    EvAflCutsFree => "cuts its way out of {}", "se taille un chemin hors de {}";
    EvAflBackInMouth => "escapes back into {}'s mouth (still grappled)", "s'échappe jusque dans la gueule de {} (toujours agrippé)";
    EvAflFallsOut => "comes out of {}, fallen", "sort de {}, tombé";
    EvAflEngulfed => "is engulfed by {}'s {} ({}): pinned inside", "est englouti par {} ({}, {}) : immobilisé à l'intérieur";
    EvAflEngulfedSave => "failed save", "jet de sauvegarde raté";
    EvAflEngulfedAoo => "attacked instead of saving", "a attaqué au lieu de se sauvegarder";
    EvAflEngulfedHelpless => "helpless", "sans défense";
    EvAflAvoidsEngulf => "avoids {}'s engulf", "évite l'engloutissement de {}";
    EvAflPushedAside => "pushed aside by {} to {}", "repoussé de côté par {} en {}";
    EvAflEscapesEngulf => "escapes from inside {}", "s'échappe de l'intérieur de {}";
    EvAflEscapesEngulfTo => "escapes from inside {} to {}", "s'échappe de l'intérieur de {} en {}";
    EvAflSings => "sings: {}", "chante : {}";
    EvAflCaptivated => "is captivated by {}'s {}", "est captivé par {} ({})";
    EvAflSplits => "takes no damage: its {} splits it ({} hp): it keeps {} hp, and {} appears at {} with as many", "ne subit aucun dégât : son pouvoir ({}) le divise ({} pv) : il garde {} pv, et {} apparaît en {} avec autant";
    EvAflSplitsNoRoom => "takes no damage: its {} halves it ({} hp to {}), no room for a copy", "ne subit aucun dégât : son pouvoir ({}) le réduit de moitié ({} pv à {}), sans place pour une copie";
    EvAflBerserk => "goes berserk ({}: d% {} within {} %): it attacks the nearest living creature", "devient furieux ({} : d% {} pour {} %) : il attaque la créature vivante la plus proche";
    EvAflMagicHeals => "its {}: {} {} damage heals {}", "son pouvoir ({}) : {} dégâts ({}) le soignent de {}";
    EvAflMagicHealsTemp => " and gives {} temporary hit points", " et lui donnent {} pv temporaires";
    EvAflMagicHealsEndsSlow => ", ending its slow", ", ce qui met fin à sa lenteur";
    EvAflMagicSlows => "its {}: {} slows it for {} rounds, no save", "son pouvoir ({}) : {} le ralentit pendant {} rounds, sans jet de sauvegarde";
    EvAflCursedWoundFails => "{}'s {}: {}'s caster level check {}+{} = {} against DC {}: the healing has no effect", "{} ({}) : test de niveau de lanceur de {} {}+{} = {} contre DD {} : les soins sont sans effet";
    EvAflCursedWoundOvercome => "{}'s {}: {}'s caster level check {}+{} = {} against DC {}: the healing works", "{} ({}) : test de niveau de lanceur de {} {}+{} = {} contre DD {} : les soins agissent";
    EvAflDominates => "uses its {} on {}", "utilise son pouvoir ({}) sur {}";
    EvAflDominated => "is dominated by {}'s {}: it fights on its side", "est dominé par {} ({}) : il combat dans son camp";
    EvAflCaptiveWalks => "captivated: walks toward {}", "captivé : marche vers {}";
    EvAflCaptiveStands => "captivated: stands beside {}, offering no resistance", "captivé : se tient près de {} sans opposer de résistance";
    EvSave => "{} save d20={}={} vs DC {}{} -> {}", "jet de {} d20={}={} contre DD {}{} -> {}";
    EvSaveFort => "fort", "Vigueur";
    EvSaveRef => "ref", "Réflexes";
    EvSaveWill => "will", "Volonté";
    EvRolledTwice => " (rolled twice: {}, {})", " (lancé deux fois : {}, {})";
    EvSaves => "saves", "réussit";
    EvSplNoArea => "{}: the area has no square", "{} : la zone ne contient aucune case";
    EvSplCovers => "{} covers {} squares: {}", "{} couvre {} cases : {}";
    EvSplImmune => "is immune to {}", "est immunisé contre {}";
    EvSplKeptOut => "is inside a globe that keeps {} out", "est dans un globe que {} ne peut pénétrer";
    EvSplUnheard => "does not hear {} in the silence", "n'entend pas {} dans le silence";
    EvSplImmuneAlready => "is immune to {} (affected by it already)", "est immunisé contre {} (déjà affecté)";
    EvSplDisbelieves => "disbelieves {}", "ne croit pas à {}";
    EvSplSlain => "is slain by {}", "est tué par {}";
    EvSplWarded => "is warded against {}", "est protégé contre {}";
    EvSplLastsUntil => "{} lasts until round {}", "{} dure jusqu'au round {}";
    EvSplLastsBattle => "{} lasts the battle", "{} dure tout le combat";
    EvSplZoneEnds => "{} ends", "{} prend fin";
    EvSplDismissed => "dismisses {}", "révoque {}";
    EvSplRedirected => "directs {} at {}", "dirige {} contre {}";
    EvSplConstructEnds => "{} fades", "{} se dissipe";
    EvSplRetaliates => "{} strikes back at {}", "{} riposte contre {}";
    EvSplHandFormed => "shapes {} from its life force (-{} hp)", "façonne {} de sa force vitale (-{} pv)";
    EvSplByHand => "the spectral hand carries {} to {}", "la main spectrale porte {} jusqu'à {}";
    EvSplTeleports => "{}: vanishes from ({}, {}) and appears at ({}, {})", "{} : disparaît de ({}, {}) et apparaît en ({}, {})";
    EvSplNoArrival => "{}: the spot is taken, it stays", "{} : l'emplacement est pris, il reste";
    EvSplHandReturns => "{} ends: {} hp come back", "{} prend fin : {} pv reviennent";
    EvSplZoneMoves => "{} moves to ({}, {})", "{} se déplace en ({}, {})";
    EvSplDelivered => "spellstrike delivers {}", "la frappe de sort délivre {}";
    EvSplResistance => "spell resistance {}: caster level check d20={}={} -> {}", "résistance à la magie {} : test de niveau de lanceur d20={}={} -> {}";
    EvSplOvercome => "overcome", "surmontée";
    EvSplResisted => "RESISTED", "RÉSISTÉ";
    EvSplDispel => "dispel check vs {} d20={}={} vs DC {} -> {}", "test de dissipation contre {} d20={}={} contre DD {} -> {}";
    EvSplDispelled => "dispelled", "dissipé";
    EvFxEvades => "evades the damage", "esquive les dégâts";
    EvFxWardedOff => "wards off the damage", "repousse les dégâts";
    EvFxConditions => "is {}", "est {}";
    EvFxAbilityDamage => "takes {} {} damage", "subit {} points d'affaiblissement de {}";
    EvFxImmuneNegativeLevels => "is immune to negative levels", "est immunisé contre les niveaux négatifs";
    EvFxNegativeLevels => "gains {} negative level(s)", "gagne {} niveau(x) négatif(s)";
    EvFxStabilized => "is stabilized", "est stabilisé";
    EvFxResumesDying => "resumes dying", "recommence à mourir";
    EvFxMirrorImages => "has {} mirror images", "a {} images miroir";
    EvFxHealedByNegative => "is healed {} by negative energy", "est soigné de {} par l'énergie négative";
    EvFxSlain => "is slain", "est tué";
    EvFxDropsHeld => "drops what it holds", "lâche ce qu'il tient";
    EvFxResized => "becomes {}", "devient de taille {}";
    EvFxNoRoomToGrow => "has no room to grow and keeps its size", "n'a pas la place de grandir et garde sa taille";
    EvFxManeuver => "faces the spell's {} check: CMB d20={}={} vs CMD {}", "subit le test de {} du sort : BMO d20={}={} contre DMD {}";
    EvFxManeuverHolding => "faces the spell's {} check to keep its hold: CMB d20={}={} vs CMD {}", "subit le test de {} du sort pour maintenir sa prise : BMO d20={}={} contre DMD {}";
    SizeFine => "Fine", "Infime";
    SizeDiminutive => "Diminutive", "Minuscule";
    SizeTiny => "Tiny", "Très petite";
    SizeSmall => "Small", "Petite";
    SizeMedium => "Medium", "Moyenne";
    SizeLarge => "Large", "Grande";
    SizeHuge => "Huge", "Très grande";
    SizeGargantuan => "Gargantuan", "Gigantesque";
    SizeColossal => "Colossal", "Colossale";
    EvSpellDamage => "{} takes {} {} damage{} (hp {}->{})", "{} subit {} dégâts ({}){} (pv {}->{})";
    EvUntyped => "untyped", "sans type";
    EvCarriedEffect => "is still under {} from an earlier fight", "est encore sous {} depuis un combat précédent";
    EvCarriedEffectOne => "is still under {} from an earlier fight (1 round left)", "est encore sous {} depuis un combat précédent (1 round restant)";
    EvCarriedEffectRounds => "is still under {} from an earlier fight ({} rounds left)", "est encore sous {} depuis un combat précédent ({} rounds restants)";
    EvEffectGained => "is affected by {}", "est affecté par {}";
    EvEffectGainedOne => "is affected by {} for 1 round", "est affecté par {} pendant 1 round";
    EvEffectGainedRounds => "is affected by {} for {} rounds", "est affecté par {} pendant {} rounds";
    EvEffectEnds => "{} {}", "{} {}";
    EvEndWearsOff => "wears off", "se dissipe";
    EvEndEnds => "ends", "prend fin";
    EvEndSpent => "is spent", "est consommé";
    EvEndDischarged => "is discharged", "est déchargé";
    EvEndDispelled => "is dispelled", "est dissipé";
    EvEndNewWard => "ends (a new ward)", "prend fin (une nouvelle protection)";
    EvEndOutOfArea => "ends (out of the area)", "prend fin (hors de la zone)";
    EvEndShakenOff => "is shaken off", "est rejeté";
    EvEndBrokenThreatened => "is broken (threatened)", "est rompu (menacé)";
    EvEndAttacked => "ends (it attacked)", "prend fin (il a attaqué)";
    EvEndWounded => "ends (wounded)", "prend fin (blessé)";
    EvEndNoImageLeft => "is gone (no image left)", "a disparu (plus aucune image)";
    EvEndHealed => "is healed", "est soigné";
    EvEndUsedUp => "is used up", "est épuisé";
    EvEndBrokenFree => "is broken: free", "est rompu : libre";
    EvEndReleased => "ends: the hold is not kept", "prend fin : la prise n'est pas maintenue";
    EvEffectLingers => "{} lasts {} more rounds (out of the area)", "{} dure encore {} rounds (hors de la zone)";
    EvLosesTurn => "loses its turn ({})", "perd son tour ({})";
    EvConfused => "confused d%={}: {}", "confus d%={} : {}";
    EvConfusedNormal => "acts normally", "agit normalement";
    EvConfusedBabbles => "babbles incoherently", "babille de façon incohérente";
    EvConfusedHurts => "hurts itself for {} (hp {}->{})", "se blesse de {} (pv {}->{})";
    EvConfusedAttacks => "attacks the nearest creature, {}", "attaque la créature la plus proche, {}";
    EvConfusedNobody => "nobody in reach to attack, babbles", "personne à portée d'attaque, babille";
    EvBreaksFree => "spends its turn breaking free", "passe son tour à se libérer";
    EvCursed => "curse: d%={} <= {}: takes no action", "malédiction : d%={} <= {} : n'agit pas";
    EvSanctuary => "cannot bring itself to attack {} (sanctuary)", "ne peut se résoudre à attaquer {} (sanctuaire)";
    EvImmediateAction => "immediate action", "action immédiate";
    EvPounces => "pounces", "bondit";
    EvRunEndurance => "run endurance: Con check d20={}={} vs DC {} -> {}", "endurance de course : test de Con d20={}={} contre DD {} -> {}";
    EvRunGoesOn => "goes on", "continue";
    EvRunStopped => "run stopped", "course arrêtée";
    EvHexes => "hexes {} ({}, DC {})", "maudit {} ({}, DD {})";
    EvHexEvilEye => "evil_eye", "mauvais œil";
    EvHexSlumber => "slumber", "sommeil";
    EvHexCackle => "cackle", "ricanement";
    EvHexMisfortune => "misfortune", "infortune";
    EvHexFortune => "fortune", "fortune";
    EvHexHealing => "healing", "guérison";
    EvHexWard => "ward", "protection";
    EvImmuneMind => "is immune (mind-affecting)", "est immunisé (effet mental)";
    EvImmuneSleep => "is immune (mind-affecting sleep)", "est immunisé (sommeil, effet mental)";
    EvCackles => "cackles", "ricane";
    EvUsesPower => "uses {} on {} ({} left)", "utilise {} sur {} (il en reste {})";
    EvImmunePower => "is unaffected by {}", "n'est pas affecté par {}";
    EvInspiresCourage => "begins to inspire courage (+{})", "commence à inspirer le courage (+{})";
    EvStopsPerforming => "stops performing", "cesse sa représentation";
    EvSpellCombatNoAttack => "spell combat: no attack ({})", "combat magique : pas d'attaque ({})";
    EvSpellstrike => "spellstrike with {}", "frappe de sort avec {}";
    EvArcaneAccuracy => "arcane accuracy: +{} insight on attack rolls this turn (arcane pool {})", "précision arcanique : +{} d'intuition aux jets d'attaque ce tour-ci (réserve arcanique {})";
    EvEnhances => "enhances {} +{} (arcane pool {})", "améliore {} +{} (réserve arcanique {})";
    EvGritSpent => "spends 1 grit on {} (grit {})", "dépense 1 point de panache pour {} (panache {})";
    EvDeedDeadeye => "deadeye", "œil de lynx";
    EvDeedUpClose => "up_close_and_deadly", "à bout portant";
    EvQuickClear => "quick clear: {} works again (grit {})", "désenrayage rapide : {} fonctionne de nouveau (panache {})";
    EvGunslingersDodge => "gunslinger's dodge: +2 AC (grit {})", "esquive du pistolier : +2 CA (panache {})";
    EvFearAura => "fear aura reaches {}", "l'aura de terreur atteint {}";
    EvLichTouch => "is paralyzed by the lich's touch", "est paralysé par le toucher de la liche";
    EvCannotTouch => "cannot touch {} (protection from its alignment)", "ne peut toucher {} (protection contre son alignement)";
    EvRollsTwice => "rolls twice: {}, {}", "lance deux fois : {}, {}";
    EvUpCloseGrazes => "up close and deadly grazes {} for {}", "à bout portant effleure {} pour {}";
    EvDamageReduction => "damage reduction absorbs {}", "la réduction des dégâts absorbe {}";
    EvPicksUp => "picks up its {}", "ramasse son arme ({})";
    EvRepairs => "repairs its {}", "répare son arme ({})";
    EvPowerAttack => "power attack (-{} melee attack and CMB, +{} damage)", "attaque en puissance (-{} à l'attaque au corps à corps et au BMO, +{} aux dégâts)";
    EvAooSuppressed => "AoO on {} suppressed (total concealment)", "AdO sur {} annulée (camouflage total)";
    EvAooMovesThrough => "AoO: {} moves through its space", "AdO : {} traverse son espace";
    EvAidAnother => "aid another ({}) for {} d20={}={} vs {} -> {}", "aider quelqu'un ({}) pour {} d20={}={} contre {} -> {}";
    EvRides => "rides {} (it acts on its rider's initiative)", "monte {} (qui agit à l'initiative de son cavalier)";
    EvMountedCharges => "charges {} on {} with its {} (damage x{})", "charge {} sur {} avec son arme ({}) (dégâts x{})";
    EvMountedShields => "mounted combat for {} against {}: Ride d20={}={} vs attack {} -> {}", "combat monté pour {} contre {} : Équitation d20={}={} contre l'attaque {} -> {}";
    EvHitNegated => "hit negated", "coup annulé";
    EvMountDirects => "directs {} to attack: Ride d20={}={} vs {} -> {}", "ordonne à {} d'attaquer : Équitation d20={}={} contre {} -> {}";
    EvMountAttacks => "attacks", "attaque";
    EvStaysInSaddle => "stays in the saddle of {} ({}%)", "reste en selle sur {} ({} %)";
    EvFallsFromMount => "falls from {} to {} ({}{}): {} damage{}", "tombe de {} en {} ({}{}) : {} dégâts{}";
    EvFallRide => ", Ride d20={}={} vs 15", ", Équitation d20={}={} contre 15";
    EvFallsProne => ", prone", ", à terre";
    EvDismountMountDown => "its mount is down", "sa monture est hors de combat";
    EvDismountMountProne => "its mount is prone", "sa monture est à terre";
    EvDismountUnconscious => "unconscious", "inconscient";
    EvDismountDead => "dead", "mort";
    EvDismountUnseated => "unseated", "désarçonné";
    EvUnseats => "unseat {}: d20={}={} vs CMD {} -> {}", "désarçonner {} : d20={}={} contre DMD {} -> {}";
    EvKnockedOff => "knocked off", "jeté à terre";
    EvStaysOn => "stays on", "reste en selle";
    EvAidAttack => "attack", "attaque";
    EvAidAc => "AC", "CA";
    EvNlUnconscious => "falls unconscious (nonlethal {} > hp {})", "tombe inconscient (non létaux {} > pv {})";
    EvNlStaggered => "is staggered (nonlethal {} = hp {})", "est chancelant (non létaux {} = pv {})";
    EvNlTakes => "takes {} nonlethal (nonlethal {}, hp {})", "subit {} dégâts non létaux (non létaux {}, pv {})";
    EvNlWakesUp => "wakes up (nonlethal {}, hp {})", "se réveille (non létaux {}, pv {})";

    // ---- the battle shown (pf1e sim --transcript --show) ----
    ShownMedian => "=== Run {}: the battle nearest the median HP lost (the party lost {} HP) ===",
        "=== Combat {} : le plus proche de la médiane des PV perdus (le groupe a perdu {} PV) ===";
    ShownWorst => "=== Run {}: a battle of the worst decile by HP lost (the party lost {} HP) ===",
        "=== Combat {} : un combat du pire décile de PV perdus (le groupe a perdu {} PV) ===";
    ShownWipe => "=== Run {}: a party wipe, everyone down (the party lost {} HP) ===",
        "=== Combat {} : le groupe anéanti, tous à terre (le groupe a perdu {} PV) ===";
    ShownNoWipe => "=== Run {}: no party wipe in {} battles; a battle of the worst decile instead (the party lost {} HP) ===",
        "=== Combat {} : aucun groupe anéanti en {} combats ; un combat du pire décile à la place (le groupe a perdu {} PV) ===";
    ShownBest => "=== Run {}: the party's best battle (the party lost {} HP) ===",
        "=== Combat {} : le meilleur combat du groupe (le groupe a perdu {} PV) ===";
    ShownRun => "=== Run {}, as asked ===", "=== Combat {}, comme demandé ===";

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
    BenchMonsters => "monster-abilities encounter: Esha, Harvie, Oni and Nairda (players) vs a troll and 2 ghouls (monsters)",
        "rencontre de pouvoirs de monstres : Esha, Harvie, Oni et Nairda (players) contre un troll et 2 goules (monsters)";

    // ---- outcome words: the same in every report (criteria and thresholds) ----
    CritNoPcDies => "P(no PC dies)", "P(aucun PJ ne meurt)";
    CritEveryoneDown => "P(everyone down)", "P(tous à terre)";
    CritPcDies => "P(a PC dies)", "P(un PJ meurt)";
    CritHpLost => "HP lost", "PV perdus";
    CritWin => "P(win)", "P(victoire)";
    AtMost => "{} ≤ {}", "{} ≤ {}";
    AtLeast => "{} ≥ {}", "{} ≥ {}";
    SameBattles => "{} (`{}`; same battles as {})", "{} (`{}` ; mêmes combats que {})";
    PartyAt => "party at {} of its HP", "groupe à {} de ses PV";

    // ---- the verdict: one paragraph at the top of a sweep's report ----
    Verdict => "Verdict", "Verdict";
    VerdictFight => "{}: {} ({}) against {}; by the book {} (CR {} against APL {}).",
        "{} : {} ({}) contre {} ; selon le livre {} (FP {} contre NMG {}).";
    VerdictFightNoCr => "{}: {} ({}) against {}; no CR by the book (APL {}).",
        "{} : {} ({}) contre {} ; aucun FP selon le livre (NMG {}).";
    VerdictFled => ", the party fled in {}", ", le groupe a fui dans {}";
    VerdictStrategies => "With the party playing {} and its adversaries {}, the party wins {} of {} battles; a PC dies in {}, everyone is down in {}.",
        "Avec le groupe jouant {} et ses adversaires {}, le groupe gagne {} des {} combats ; un PJ meurt dans {}, tous sont à terre dans {}.";
    VerdictDefault => "With both sides' default plans the party wins {} of {} battles; a PC dies in {}, everyone is down in {}.",
        "Avec les plans par défaut des deux camps, le groupe gagne {} des {} combats ; un PJ meurt dans {}, tous sont à terre dans {}.";
    VerdictBest => "Best plan against {}: {}, P(no PC dies) {} (the default play: {}).",
        "Meilleur plan contre {} : {}, P(aucun PJ ne meurt) {} (le jeu par défaut : {}).";
    VerdictBestAlone => "Best plan against {}: {}, P(no PC dies) {}.",
        "Meilleur plan contre {} : {}, P(aucun PJ ne meurt) {}.";
    VerdictNoPlan => "Against {} no plan survives: a PC dies in every battle; the least bad plan is {} (P(win) {}).",
        "Contre {}, aucun plan ne sauve tout le monde : un PJ meurt dans chaque combat ; le plan le moins mauvais est {} (P(victoire) {}).";
    VerdictCarry => "Who carries the fight: {} (without it the party wins {} instead of {}; a PC dies in {} instead of {}).",
        "Qui porte le combat : {} (sans lui le groupe gagne {} au lieu de {} ; un PJ meurt dans {} au lieu de {}).";
    VerdictNoCarry => "No one member carries the fight: without any one of them the party's win rate moves by at most {} points, not told apart from chance.",
        "Aucun membre ne porte le combat à lui seul : sans l'un d'eux, la victoire du groupe varie d'au plus {} points, sans se distinguer du hasard.";
    VerdictRisk => "Riskiest condition found: the party at {} of its HP, the adversary at {}{}: {} {}.",
        "Condition la plus risquée trouvée : le groupe à {} de ses PV, l'adversaire à {}{} : {} {}.";

    // ---- strategies in words (the canonical spec is shown beside them) ----
    StratDefault => "the default play", "le jeu par défaut";
    StratNearest => "attack the nearest", "attaquer le plus proche";
    StratWeakestAc => "focus the weakest armour", "viser l'armure la plus faible";
    StratLowestHp => "focus the most wounded", "viser le plus blessé";
    StratHealer => "go for the spellcasters", "viser les lanceurs de sorts";
    StratNoSpells => "cast no spells", "ne lancer aucun sort";
    StratNoCharges => "never charge", "ne jamais charger";
    StratNoAbilities => "no class abilities", "aucune capacité de classe";
    StratRetreat => "fall back below {} of hit points", "se replier sous {} des points de vie";
    StratPowerAlways => "Power Attack every melee turn", "Attaque en puissance à chaque tour de mêlée";
    StratPowerNever => "never Power Attack", "jamais d'Attaque en puissance";
    StratTrip => "trip when it is as likely as a hit", "faire un croc-en-jambe quand c'est aussi sûr qu'un coup";
    StratDisarm => "disarm when it is as likely as a hit", "désarmer quand c'est aussi sûr qu'un coup";
    StratManeuverAuto => "trip or disarm when as likely as a hit", "croc-en-jambe ou désarmement quand c'est aussi sûr qu'un coup";
    StratOpenBuffs => "open with buffs", "commencer par les sorts de soutien";
    StratFocusCasters => "enemy casters first", "les lanceurs adverses d'abord";
    StratSaveHeals => "keep slots for healing", "garder des emplacements pour soigner";
    StratAreaMin => "area spells on {} enemies or more", "sorts de zone sur {} ennemis ou plus";

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
    BestPlan => "best plan: {} — P(no PC dies) {} [{}, {}], P(win) {}", "meilleur plan : {} — P(aucun PJ ne meurt) {} [{}, {}], P(victoire) {}";
    NoPlanSurvives => "no plan survives: a PC dies in every battle whatever the plan; least bad plan: {} — P(win) {}, P(everyone down) {}",
        "aucun plan ne sauve tout le monde : un PJ meurt dans chaque combat quel que soit le plan ; plan le moins mauvais : {} — P(victoire) {}, P(tous à terre) {}";
    TiedWithNone => "no other plan tied at 3σ", "aucun autre plan à égalité à 3σ";
    TiedWithOne => "tied at 3σ with 1 other", "à égalité à 3σ avec 1 autre";
    TiedWithMany => "tied at 3σ with {} others", "à égalité à 3σ avec {} autres";
    LeversMatter => "the levers that matter (significant differences): {}", "les leviers qui comptent (écarts significatifs) : {}";
    NoLeverMatters => "no lever made a significant difference", "aucun levier n'a fait d'écart significatif";
    OptimizeNote => "adversary {}; {} strategies measured in {} runs, {} distinct results",
        "adversaire {} ; {} stratégies mesurées en {} combats, {} résultats distincts";
    TopNote => "showing the top {} of {} rows (--top N to see more)", "les {} premières lignes sur {} (--top N pour en voir plus)";
    TiedNote => "≈: tied with rank 1 at 3σ; names listed together played identically",
        "≈ : à égalité avec le rang 1 à 3σ ; noms listés ensemble : jeu identique";
    ParetoFront => "Pareto front on {} (• in the rank column: no other plan at least as good on each and significantly better on one): {}",
        "front de Pareto sur {} (• dans la colonne du rang : aucun autre plan au moins aussi bon sur chacun et significativement meilleur sur l'un) : {}";
    ConstraintsMet => "constraints {}: {} of {} rows meet them at their estimates ({} over their whole 3σ interval) and rank first; † marks the others",
        "contraintes {} : {} lignes sur {} les respectent selon leurs estimations ({} sur tout leur intervalle à 3σ) et sont classées d'abord ; † marque les autres";
    NoneFeasible => "no plan meets the constraints {}: the rows are ranked as without them, each marked †",
        "aucun plan ne respecte les contraintes {} : les lignes sont classées comme sans elles, chacune marquée †";
    SearchBest => "search of {} on {} ({} batches of {} points, {} runs): best {}, {} {} [{}, {}] over {} runs",
        "recherche de {} sur {} ({} lots de {} points, {} combats) : meilleur {}, {} {} [{}, {}] sur {} combats";
    SearchBetter => "significantly better than {} by {} [{}, {}] (paired, {} runs)",
        "significativement meilleur que {} de {} [{}, {}] (apparié, {} combats)";
    SearchWorse => "significantly worse than {} by {} [{}, {}] (paired, {} runs)",
        "significativement moins bon que {} de {} [{}, {}] (apparié, {} combats)";
    SearchTied => "not distinguishable from {}: {} [{}, {}] (paired, {} runs)",
        "indiscernable de {} : {} [{}, {}] (apparié, {} combats)";
    SearchBaseBest => "no point of the search beat the discrete leader {}", "aucun point de la recherche n'a battu le meneur discret {}";
    SearchPoints => "points tried ({}: {}; ✓ re-measured): {}", "points essayés ({} : {} ; ✓ remesuré) : {}";
    SearchFront => "the search proposed its points for the Pareto front of {} (random Chebyshev scalarisations, ParEGO): {} of its {} points are on it ({}): {}",
        "la recherche a proposé ses points pour le front de Pareto de {} (scalarisations de Tchebychev aléatoires, ParEGO) : {} de ses {} points y sont ({}) : {}";
    RangeImportance => "importance of the ranged levers on the Gaussian process over {} points (share of the variance of its mean of {} over the ranges, which moves it by {} (sd) against a posterior sd of {}; noise alone ≈ the share in brackets): {}; interactions {}",
        "importance des leviers à intervalle sur le processus gaussien de {} points (part de la variance de sa moyenne de {} sur les intervalles, qui la fait varier de {} (écart type) pour un écart type a posteriori de {} ; le bruit seul ≈ la part entre crochets) : {} ; interactions {}";
    Importance => "lever importance over the grid's {} cells (share of the variance of {} each lever explains alone; noise alone ≈ the share in brackets; * the paired test finds it matters): {}; interactions {}",
        "importance des leviers sur les {} cellules de la grille (part de la variance de {} expliquée par chaque levier seul ; le bruit seul ≈ la part entre crochets ; * le test apparié le trouve déterminant) : {} ; interactions {}";
    ColRank => "Rank", "Rang";
    ColStrategy => "Strategy", "Stratégie";
    ColRuns => "Runs", "Combats";
    ColSurvive => "P(no PC dies) [3σ]", "P(aucun PJ ne meurt) [3σ]";
    ColTpk => "P(everyone down)", "P(tous à terre)";
    ColFled => "P(fled)", "P(fuite)";
    ColAnyDeath => "P(a PC dies)", "P(un PJ meurt)";
    ColHpLost => "HP lost", "PV perdus";
    ColWorstDecile => "Worst-decile HP", "PV pire décile";
    ColRoundsAvg => "Rounds", "Rounds";
    ColWin => "P(win) [3σ]", "P(victoire) [3σ]";
    ColStage => "Stage", "Étape";
    StageGrid => "grid", "grille";
    StageRefine => "refine", "affinage";
    StageCandidate => "candidate", "candidat";
    MoreNames => "(+{} more)", "(+{} autres)";

    // ---- minmax ----
    MinmaxAnswer => "answer: party {} against adversary {} — P(no PC dies) {} [{}, {}]; {}",
        "réponse : groupe {} contre adversaire {} — P(aucun PJ ne meurt) {} [{}, {}] ; {}";
    Converged => "converged: the last iteration kept the pair", "convergé : la dernière itération a gardé la paire";
    NotConverged => "not converged", "pas de convergence";
    LlmAdversaries => "; adversaries proposed by the LLM: {}", " ; adversaires proposés par le LLM : {}";
    MinmaxPartyTied => "; as good for the party, not told apart at this confidence: {}", " ; aussi bons pour le groupe, indiscernables à ce niveau de confiance : {}";
    MinmaxAdversaryTied => "; as bad for the party, not told apart: {}", " ; aussi dangereux pour le groupe, indiscernables : {}";
    ColIter => "Iter", "Itér.";
    ColParty => "Party", "Groupe";
    ColAdversary => "Adversary", "Adversaire";
    ColPartySurvive => "P(no PC dies)", "P(aucun PJ ne meurt)";
    ColPartyTpk => "P(everyone down)", "P(tous à terre)";
    ColPartyHp => "Party HP lost", "PV perdus groupe";
    ColAdvSurvive => "P(no foe dies)", "P(aucun adv. ne meurt)";
    ColAdvTpk => "P(all foes down)", "P(adv. tous à terre)";
    ColAdvHp => "Adv. HP lost", "PV perdus adv.";

    // ---- danger_map ----
    DangerAnswer => "most dangerous: party at {} of its HP, adversary at {} — {} {}; {} in {} of {} measured points",
        "le plus dangereux : groupe à {} de ses PV, adversaire à {} — {} {} ; {} dans {} points mesurés sur {}";
    DangerCells => "cells: P(no PC dies) of the party / P(no foe dies); ! = {} (party {} vs adversary {}); · = not measured (refined elsewhere)",
        "cases : P(aucun PJ ne meurt) du groupe / P(aucun adv. ne meurt) ; ! = {} (groupe {} contre adversaire {}) ; · = non mesuré (affiné ailleurs)";
    Layer => "layer {}: {}", "couche {} : {}";
    AllAsInFiles => "as in the files", "comme dans les fichiers";
    Aware => "{} aware", "{} sur ses gardes";
    Unaware => "{} unaware", "{} pris par surprise";
    Copies => "{} extra {}", "{} {} en plus";
    ColPartyAdv => "Party\\Adv", "Groupe\\Adv";

    // ---- frontier ----
    FrontierBelow => "frontier: {} when the party starts at {} of its HP or less",
        "frontière : {} quand le groupe commence à {} de ses PV ou moins";
    FrontierAbove => "frontier: {} when the party starts at {} of its HP or more",
        "frontière : {} quand le groupe commence à {} de ses PV ou plus";
    FrontierEverywhere => "frontier: {} at every party HP measured", "frontière : {} à tous les PV du groupe mesurés";
    FrontierAt => "frontier: {} when the party starts at {} of its HP", "frontière : {} quand le groupe commence à {} de ses PV";
    NoFrontier => "no frontier: {} nowhere between {} and {} of the party's HP", "pas de frontière : {} nulle part entre {} et {} des PV du groupe";
    ColPartyHpFraction => "Party HP", "PV groupe";
    ColCrossed => "Crossed", "Franchi";

    // ---- sensitivity ----
    SensitivityAnswer => "the adversary lever that matters most: {} ({} {} against the default adversary)",
        "le levier adverse qui compte le plus : {} ({} {} par rapport à l'adversaire par défaut)";
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
    PlaybookImage => "P(no PC dies) of the top strategies with 3σ bars (job {})", "P(aucun PJ ne meurt) des meilleures stratégies avec barres 3σ (job {})";
    DangerImage => "danger map of job {}", "carte de danger du job {}";
    SvgDangerTitle => "danger map: {} (party {} vs adversary {})", "carte de danger : {} (groupe {} contre adversaire {})";
    SvgAdversaryHp => "adversary HP fraction", "fraction de PV adverses";
    SvgPartyHp => "party HP", "PV groupe";
    SvgCrossed => "black dots: {}", "points noirs : {}";
    ParetoImage => "Pareto front of job {}", "front de Pareto du job {}";
    SvgParetoTitle => "Pareto front: {} of {} plans (filled, joined; bars: intervals at the sweep's level)",
        "front de Pareto : {} plans sur {} (pleins, reliés ; barres : intervalles au niveau du balayage)";
    SvgParetoColour => "colour: {} from {} (dark) to {} (bright)", "couleur : {} de {} (sombre) à {} (clair)";
    ImportanceImage => "lever importance of job {}", "importance des leviers du job {}";
    SvgImportanceTitle => "Lever importance: share of the variance of {} each lever explains alone",
        "Importance des leviers : part de la variance de {} expliquée par chaque levier seul";
    SvgImportanceGrid => "the grid ({} cells)", "la grille ({} cellules)";
    SvgImportanceRanges => "the ranges (Gaussian process over {} points)", "les intervalles (processus gaussien de {} points)";
    SvgImportanceAxis => "share of the variance [noise alone]", "part de la variance [bruit seul]";
    SvgImportanceLegend => "dark band: the share noise alone would give; blue and *: the paired test finds the lever matters",
        "bande sombre : la part que donnerait le bruit seul ; bleu et * : le test apparié trouve le levier déterminant";
    SvgImportanceColours => "green: a lever searched as a range (shares of the Gaussian process's mean); orange: interactions",
        "vert : un levier à intervalle (parts de la moyenne du processus gaussien) ; orange : interactions";
    SvgInteractions => "interactions", "interactions";
    SvgHigherBetter => "higher is better", "plus haut est mieux";
    SvgLowerBetter => "lower is better", "plus bas est mieux";
    SvgPlaybookTitle => "P(no PC dies) against {}, best first (3σ bars; {} runs per strategy at most)",
        "P(aucun PJ ne meurt) contre {}, meilleurs d'abord (barres 3σ ; {} combats par stratégie au plus)";

    // ---- progress ----
    ProgressRuns => "runs (worst case)", "combats (pire cas)";
    ProgressCells => "{}/{} cells, {} shards from cache, {} computed", "{}/{} cases, {} shards du cache, {} calculés";
    ProgressLine => "sweep {} {}: {}/{} runs of at most {}, {}", "sweep {} {} : {}/{} combats sur {} au plus, {}";
    LeadersOptimize => "optimize leaders by P(no PC dies): {}", "meneurs d'optimize par P(aucun PJ ne meurt) : {}";
    ProgressMinmax => "minmax iteration {}: {} vs {} (P(no PC dies) {})", "minmax itération {} : {} contre {} (P(aucun PJ ne meurt) {})";
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
    CtlGcRemoved => "removed {} journaled sweeps ({}); kept {} ended, {} running untouched",
        "{} sweeps retirés du journal ({}) ; {} terminés gardés, {} en cours intacts";
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
    ("cannot_act", "a condition stops its turn", "un état interrompt son tour"),
    ("action_economy", "no action left this turn", "plus d'action ce tour"),
    ("staggered", "staggered", "chancelant"),
    ("nauseated", "nauseated", "nauséeux"),
    ("pinned", "pinned", "immobilisé"),
    ("surprise", "surprise round", "round de surprise"),
    ("unsupported_kind", "action not played yet", "action pas encore jouée"),
    ("cannot_attack", "cannot attack", "ne peut pas attaquer"),
    ("cannot_move", "cannot move", "ne peut pas se déplacer"),
    ("not_on_exit", "not on an exit square", "pas sur une case de sortie"),
    ("nothing_to_dismiss", "no area of that spell to dismiss", "aucune zone de ce sort à révoquer"),
    ("cannot_run_or_charge", "cannot run or charge", "ne peut ni courir ni charger"),
    ("missing_maneuver", "no such maneuver", "manœuvre inconnue"),
    ("target_too_large", "target too large", "cible trop grande"),
    ("nothing_to_take", "nothing to take", "rien à prendre"),
    ("not_grappled", "not grappled", "pas agrippé"),
    ("not_bound", "nothing to break free of", "rien dont se libérer"),
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

/// The catalogue entry of a condition: every condition has one, in both
/// languages (the match is exhaustive, so a new condition does not build
/// without its words).
pub fn condition(c: pf1e_engine::effects::ConditionId) -> T {
    use pf1e_engine::effects::ConditionId as C;
    match c {
        C::Shaken => T::CondShaken,
        C::Sickened => T::CondSickened,
        C::Fatigued => T::CondFatigued,
        C::Exhausted => T::CondExhausted,
        C::Entangled => T::CondEntangled,
        C::Dazzled => T::CondDazzled,
        C::Blinded => T::CondBlinded,
        C::Deafened => T::CondDeafened,
        C::FlatFooted => T::CondFlatFooted,
        C::Prone => T::CondProne,
        C::Stunned => T::CondStunned,
        C::Paralyzed => T::CondParalyzed,
        C::Nauseated => T::CondNauseated,
        C::Dazed => T::CondDazed,
        C::Staggered => T::CondStaggered,
        C::Frightened => T::CondFrightened,
        C::Panicked => T::CondPanicked,
        C::Cowering => T::CondCowering,
        C::Helpless => T::CondHelpless,
        C::Fascinated => T::CondFascinated,
        C::Invisible => T::CondInvisible,
        C::Bleeding => T::CondBleeding,
        C::Confused => T::CondConfused,
        C::Bane => T::CondBane,
        C::Blurred => T::CondBlurred,
        C::Displaced => T::CondDisplaced,
        C::Grappled => T::CondGrappled,
        C::Pinned => T::CondPinned,
        C::Asleep => T::CondAsleep,
        C::Unconscious => T::CondUnconscious,
        C::Disarmed => T::CondDisarmed,
    }
}

/// The effects the engine itself names (ability damage, negative levels,
/// class abilities), by their English name.
const ENGINE_EFFECTS: [T; 18] = [
    T::FxStrengthDamage,
    T::FxDexterityDamage,
    T::FxConstitutionDamage,
    T::FxNegativeLevels,
    T::FxInspireCourage,
    T::FxArcanePool,
    T::FxEvilEye,
    T::FxSlumber,
    T::FxMisfortune,
    T::FxFortune,
    T::FxWard,
    T::FxFearAura,
    T::FxParalyzingTouch,
    T::FxMenaced,
    T::FxMutagen,
    T::FxMutagenStrength,
    T::FxMutagenDexterity,
    T::FxMutagenConstitution,
];

/// A name from an event in `lang`: a condition's or an effect the engine
/// names from the catalogue, any other (a spell, a monster's ability the
/// data names) as written.
pub fn named(name: &str, lang: Lang) -> String {
    if let Some(c) = pf1e_engine::effects::ConditionId::from_name(name) {
        return lang.t(condition(c)).to_string();
    }
    match ENGINE_EFFECTS.iter().find(|t| t.en() == name) {
        Some(&t) => lang.t(t).to_string(),
        None => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
    }

    #[test]
    fn effects_the_engine_names_are_translated_and_other_names_kept() {
        assert_eq!(named("Dexterity damage", Lang::Fr), "affaiblissement de Dextérité");
        assert_eq!(named("negative levels", Lang::Fr), "niveaux négatifs");
        assert_eq!(named("Dexterity damage", Lang::En), "Dexterity damage");
        assert_eq!(named("Bless", Lang::Fr), "Bless");
        assert_eq!(named("mutagen", Lang::Fr), "mutagène");
        assert_eq!(named("mutagen (constitution)", Lang::Fr), "mutagène (Constitution)");
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
    fn every_event_entry_has_its_own_french_words() {
        // Words spelled alike in both languages, or a bare layout of names.
        const SAME: &[&str] = &["EvCharge", "EvModCharge", "EvModInvisible", "EvEffectEnds", "EvHexFortune"];
        for t in T::ALL {
            let name = format!("{t:?}");
            if name.starts_with("Ev") && !SAME.contains(&name.as_str()) {
                assert_ne!(t.en(), t.fr(), "{name}: the French falls back to English");
            }
        }
    }

    #[test]
    fn a_language_reads_back_from_its_code() {
        for l in Lang::ALL {
            assert_eq!(Lang::from_code(l.code()), Some(l));
        }
        assert_eq!(Lang::from_code("fr"), Some(Lang::Fr));
        assert_eq!(Lang::from_code("de"), None);
        assert_eq!(Lang::from_code("FR"), None, "codes are lower case, as --lang spells them");
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

    #[test]
    fn every_condition_has_its_words_in_both_languages() {
        use pf1e_engine::effects::ConditionId;
        let mut french = std::collections::BTreeSet::new();
        for &c in ConditionId::ALL {
            let entry = condition(c);
            assert_eq!(Lang::En.t(entry), c.name(), "English names a condition as the data does");
            let fr = Lang::Fr.t(entry);
            assert!(!fr.is_empty() && !fr.contains('_'), "{c}: {fr:?}");
            // Only the words French shares with English may stay the same.
            assert!(fr != c.name() || ["invisible"].contains(&fr), "{c} has no French name");
            assert!(french.insert(fr), "two conditions are {fr:?} in French");
            assert_eq!(named(c.name(), Lang::Fr), fr);
        }
        assert_eq!(named("bless", Lang::Fr), "bless", "a spell's name is a proper noun");
    }
}
