pub fn convert() {}
