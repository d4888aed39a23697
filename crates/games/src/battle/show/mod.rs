//! Showing: text drawings ([`render`]), SVG pictures ([`svg`]) and the words around them
//! ([`caption`]), the JSON documents ([`report`]), the replay page's document ([`view`]) and
//! the page's assembly from `web/`'s files ([`page`]), the text of `robots run` ([`run_text`]),
//! all from states and events.

pub mod caption;
pub mod page;
pub mod render;
pub mod report;
pub mod run_text;
pub mod svg;
pub mod view;
