//! The balance report: text (French by default, English on request) and JSON.
