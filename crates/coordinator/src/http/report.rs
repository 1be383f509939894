//! `GET /api/sweeps/{id}/report.md?lang=en|fr`: a finished sweep's report
//! in Markdown, laid out by pf1e-render from the same typed results
//! `pf1e ctl results ID --format md` renders (the charts are the page's:
//! this report links no image). English without `lang`.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use pf1e_render::i18n::Lang;
use pf1e_render::jobs::{self, Images, Style, View};
use pf1e_wire::status::SweepStatus;
use serde::Deserialize;

use super::error::{ApiError, sweep_id};
use super::state::AppState;

/// The query of `report.md`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ReportQuery {
    /// `en` or `fr`.
    lang: Option<String>,
}

/// The language asked for: English by default, else one of the catalogue's codes.
fn lang(code: Option<&str>) -> Result<Lang, ApiError> {
    let Some(code) = code else { return Ok(Lang::En) };
    Lang::from_code(code).ok_or_else(|| {
        let codes: Vec<&str> = Lang::ALL.iter().map(|l| l.code()).collect();
        ApiError::BadRequest(format!("lang {code:?} is not one of {}", codes.join(", ")))
    })
}

pub(super) async fn report(
    State(st): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<ReportQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let lang = lang(q.lang.as_deref())?;
    let id = sweep_id(&id)?;
    let info = st.service.lock().info(id, true)?;
    let results = match info.results.as_deref() {
        Some(results) if info.status == SweepStatus::Done => results,
        _ => return Err(ApiError::NoResults { id, status: info.status }),
    };
    let view =
        View { lang, style: Style::Markdown, top: pf1e_render::layout::DEFAULT_TOP, width: usize::MAX };
    let text = jobs::report(&view, results, &Images::new());
    Ok(([(CONTENT_TYPE, "text/markdown; charset=utf-8")], text).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_language_is_english_by_default_and_refused_when_unknown() {
        assert_eq!(lang(None).unwrap(), Lang::En);
        assert_eq!(lang(Some("fr")).unwrap(), Lang::Fr);
        assert_eq!(lang(Some("en")).unwrap(), Lang::En);
        let err = lang(Some("de")).unwrap_err().to_string();
        assert_eq!(err, "lang \"de\" is not one of en, fr");
    }
}
