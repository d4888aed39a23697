//! Showing: text drawings ([`render`]), SVG pictures ([`svg`]) and the words around them
//! ([`caption`]), the JSON documents ([`report`]), the replay page's document ([`view`]) and
//! the page's assembly from `web/`'s files ([`page`]), all from states and events.

pub mod caption;
pub mod page;
pub mod render;
pub mod report;
pub mod svg;
pub mod view;
