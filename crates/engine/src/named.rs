//! `named_enum!`: an enum whose values have names in data files, specs and
//! messages, with `ALL`, `name()`, `from_name()`, `Display` and serde as
//! those names, written once instead of by hand beside each enum.

/// Declares a fieldless enum whose every value has a snake_case name:
/// derives `Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash` and
/// serde (as the name), and writes `ALL` (every value, in declaration
/// order), `name()`, `from_name()` and `Display` (the name). More derives
/// (`#[derive(Default)]` with `#[default]` on a value) pass through as
/// attributes. The crate that uses it depends on `serde`.
///
/// ```
/// pf1e_engine::named_enum! {
///     /// A colour.
///     Colour {
///         /// Red.
///         Red => "red",
///         /// Dark blue.
///         DarkBlue => "dark_blue",
///     }
/// }
/// assert_eq!(Colour::ALL, &[Colour::Red, Colour::DarkBlue]);
/// assert_eq!(Colour::from_name("dark_blue"), Some(Colour::DarkBlue));
/// assert_eq!(Colour::Red.to_string(), "red");
/// ```
#[macro_export]
macro_rules! named_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident => $text:literal,)+ }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, ::serde::Serialize, ::serde::Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $text)] $variant,)+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// The value's name in data files, specs and messages.
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }

            /// The value called `name` (exact, snake_case).
            pub fn from_name(name: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|v| v.name() == name)
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}
