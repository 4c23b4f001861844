//! Evaluation functions (see the search issue).
