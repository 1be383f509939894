//! Strategy specs in words: `weakest_ac, retreat=0.5` reads "focus the
//! weakest armour; fall back below 50% of hit points", with the canonical
//! spec kept beside it wherever a report names a plan.

use crate::i18n::{Lang, T};

/// One lever (`retreat=0.5`, or a bare target) in words; an unknown lever
/// as written.
fn lever(part: &str, lang: Lang) -> String {
    let (key, value) = part.split_once('=').unwrap_or(("target", part));
    let fixed = match (key, value) {
        ("target", "nearest") => Some(T::StratNearest),
        ("target", "weakest_ac") => Some(T::StratWeakestAc),
        ("target", "lowest_hp") => Some(T::StratLowestHp),
        ("target", "healer") => Some(T::StratHealer),
        ("spell_policy", "none") => Some(T::StratNoSpells),
        ("use_charges", "false") => Some(T::StratNoCharges),
        ("use_class_abilities", "false") => Some(T::StratNoAbilities),
        ("power_attack", "always") => Some(T::StratPowerAlways),
        ("power_attack", "never") => Some(T::StratPowerNever),
        ("maneuver", "trip") => Some(T::StratTrip),
        ("maneuver", "disarm") => Some(T::StratDisarm),
        ("maneuver", "auto") => Some(T::StratManeuverAuto),
        ("open_with_buffs", "true") => Some(T::StratOpenBuffs),
        ("focus_casters", "true") => Some(T::StratFocusCasters),
        ("save_heals", "true") => Some(T::StratSaveHeals),
        _ => None,
    };
    if let Some(t) = fixed {
        return lang.t(t).to_string();
    }
    match key {
        "retreat" => match value.parse::<f64>() {
            Ok(f) => lang.f(T::StratRetreat, &[&format!("{:.0}%", f * 100.0)]),
            Err(_) => part.to_string(),
        },
        "area_min" => lang.f(T::StratAreaMin, &[&value]),
        _ => part.to_string(),
    }
}

/// A canonical strategy spec in words, levers joined by `; `.
pub fn words(spec: &str, lang: Lang) -> String {
    let spec = spec.trim();
    if spec.is_empty() || spec == "default" {
        return lang.t(T::StratDefault).to_string();
    }
    let sep = if lang == Lang::Fr { " ; " } else { "; " };
    spec.split(", ").map(|p| lever(p.trim(), lang)).collect::<Vec<_>>().join(sep)
}

/// The spec in words with the spec itself beside it: "focus the weakest
/// armour (`weakest_ac`)"; the default reads "the default play (`default`)".
pub fn named(spec: &str, lang: Lang) -> String {
    format!("{} (`{spec}`)", words(spec, lang))
}

/// [`named`] without Markdown's backticks, for a chart's text.
pub fn plain(spec: &str, lang: Lang) -> String {
    format!("{} ({spec})", words(spec, lang))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_as_words_in_both_languages() {
        assert_eq!(
            words("weakest_ac, retreat=0.5", Lang::En),
            "focus the weakest armour; fall back below 50% of hit points"
        );
        assert_eq!(
            words("weakest_ac, retreat=0.5", Lang::Fr),
            "viser l'armure la plus faible ; se replier sous 50% des points de vie"
        );
        assert_eq!(words("default", Lang::En), "the default play");
        assert_eq!(words("spell_policy=none, use_charges=false", Lang::En), "cast no spells; never charge");
        assert_eq!(words("area_min=3", Lang::En), "area spells on 3 enemies or more");
        assert_eq!(words("mystery=1", Lang::En), "mystery=1", "an unknown lever stays as written");
        assert_eq!(named("healer", Lang::En), "go for the spellcasters (`healer`)");
        assert_eq!(plain("healer", Lang::En), "go for the spellcasters (healer)");
    }
}
