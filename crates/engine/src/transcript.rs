//! The transcript table: `Round | Combattant | Message`, aligned by display width.
