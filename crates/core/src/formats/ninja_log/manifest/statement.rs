//! A manifest's statements, read but not evaluated (`src/manifest_parser.cc`
//! reads the same): what [`super::eval`] turns into the build graph once
//! every file given together is read.

use super::lexer::{EvalString, LexError, Lexer};

/// A `key = value` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    /// The variable's name.
    pub name: String,
    /// Its value, not yet evaluated.
    pub value: EvalString,
}

/// A `build` statement's paths, in the order written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildPaths {
    /// Explicit outputs, then implicit ones (after `|`).
    pub outs: Vec<EvalString>,
    /// How many of `outs` are explicit.
    pub explicit_outs: usize,
    /// Explicit inputs, then implicit (`|`), order-only (`||`) and
    /// validations (`|@`).
    pub ins: Vec<EvalString>,
    /// How many of `ins` are explicit.
    pub explicit_ins: usize,
    /// How many of `ins` are implicit.
    pub implicit_ins: usize,
    /// How many of `ins` are order-only.
    pub order_only: usize,
}

/// One statement of a manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statement {
    /// `name = value` at file level.
    Binding(Binding),
    /// `rule name` and its bindings.
    Rule {
        /// The rule's name.
        name: String,
        /// Its bindings (`command`, `depfile`, `pool` …), not evaluated.
        bindings: Vec<Binding>,
    },
    /// `pool name` and its bindings (`depth`).
    Pool {
        /// The pool's name.
        name: String,
        /// Its bindings.
        bindings: Vec<Binding>,
    },
    /// `build outs: rule ins` and its bindings.
    Build {
        /// The rule's name.
        rule: String,
        /// Its outputs and inputs.
        paths: Box<BuildPaths>,
        /// Its bindings, which shadow the file's for its paths.
        bindings: Vec<Binding>,
    },
    /// `default paths`.
    Default(Vec<EvalString>),
    /// `include path`: read in the same scope.
    Include(EvalString),
    /// `subninja path`: read in a scope of its own.
    Subninja(EvalString),
}

/// A statement and the line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// 1-based line of its first line.
    pub line: u64,
    /// The statement.
    pub statement: Statement,
}

/// Reads one top-level (unindented) logical line into a statement.
pub fn statement(line: &[u8]) -> Result<Statement, LexError> {
    let mut l = Lexer::new(line);
    let Some(word) = l.ident() else {
        return Err(l.error("expected a statement (build, rule, pool, default, include, subninja or a variable)"));
    };
    let st = match word {
        "build" => build(&mut l)?,
        "rule" | "pool" => {
            let name = l.ident().ok_or_else(|| l.error(format!("expected {word} name")))?.to_owned();
            if word == "rule" {
                Statement::Rule { name, bindings: Vec::new() }
            } else {
                Statement::Pool { name, bindings: Vec::new() }
            }
        }
        "default" => {
            let mut paths = Vec::new();
            while let Some(p) = l.path()? {
                paths.push(p);
            }
            if paths.is_empty() {
                return Err(l.error("expected target name"));
            }
            Statement::Default(paths)
        }
        "include" | "subninja" => {
            let path = l.path()?.ok_or_else(|| l.error("expected path"))?;
            if word == "include" {
                Statement::Include(path)
            } else {
                Statement::Subninja(path)
            }
        }
        name => {
            if !l.mark("=") {
                return Err(l.error("expected '='"));
            }
            return Ok(Statement::Binding(Binding { name: name.to_owned(), value: l.value()? }));
        }
    };
    if !l.at_end() {
        return Err(l.error("expected newline"));
    }
    Ok(st)
}

/// Reads an indented `name = value` line.
pub fn binding(line: &[u8]) -> Result<Binding, LexError> {
    let mut l = Lexer::new(line);
    l.skip_space();
    let name = l.ident().ok_or_else(|| l.error("expected variable name"))?.to_owned();
    if !l.mark("=") {
        return Err(l.error("expected '='"));
    }
    Ok(Binding { name, value: l.value()? })
}

fn paths_into(l: &mut Lexer<'_>, into: &mut Vec<EvalString>) -> Result<usize, LexError> {
    let before = into.len();
    while let Some(p) = l.path()? {
        into.push(p);
    }
    Ok(into.len() - before)
}

fn build(l: &mut Lexer<'_>) -> Result<Statement, LexError> {
    let mut p = BuildPaths::default();
    p.explicit_outs = paths_into(l, &mut p.outs)?;
    if l.mark("|") {
        paths_into(l, &mut p.outs)?;
    }
    if p.outs.is_empty() {
        return Err(l.error("expected path"));
    }
    if !l.mark(":") {
        return Err(l.error("expected ':'"));
    }
    let rule = l.ident().ok_or_else(|| l.error("expected build command name"))?.to_owned();
    p.explicit_ins = paths_into(l, &mut p.ins)?;
    if l.mark("|") {
        p.implicit_ins = paths_into(l, &mut p.ins)?;
    }
    if l.mark("||") {
        p.order_only = paths_into(l, &mut p.ins)?;
    }
    if l.mark("|@") {
        paths_into(l, &mut p.ins)?;
    }
    Ok(Statement::Build { rule, paths: Box::new(p), bindings: Vec::new() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ninja_log::manifest::lexer::Piece;

    fn texts(v: &[EvalString]) -> Vec<String> {
        v.iter().map(|e| e.evaluate(&mut |_| None)).collect()
    }

    #[test]
    fn a_build_line_splits_its_paths_as_ninja_does() {
        let Statement::Build { rule, paths, .. } =
            statement(b"build a.o b.d | a.i: cc a.c b.c | h.h || gen/stamp |@ lint").unwrap()
        else {
            panic!("not a build");
        };
        assert_eq!(rule, "cc");
        assert_eq!(texts(&paths.outs), ["a.o", "b.d", "a.i"]);
        assert_eq!(paths.explicit_outs, 2);
        assert_eq!(texts(&paths.ins), ["a.c", "b.c", "h.h", "gen/stamp", "lint"]);
        assert_eq!((paths.explicit_ins, paths.implicit_ins, paths.order_only), (2, 1, 1));
    }

    #[test]
    fn a_build_line_with_only_order_only_inputs() {
        let Statement::Build { paths, .. } = statement(b"build out: phony || dep").unwrap() else { panic!() };
        assert_eq!((paths.explicit_ins, paths.implicit_ins, paths.order_only), (0, 0, 1));
    }

    #[test]
    fn other_statements() {
        assert_eq!(
            statement(b"cflags = -O2 $extra").unwrap(),
            Statement::Binding(Binding {
                name: "cflags".into(),
                value: EvalString(vec![Piece::Text("-O2 ".into()), Piece::Var("extra".into())])
            })
        );
        assert!(matches!(statement(b"rule cc").unwrap(), Statement::Rule { name, .. } if name == "cc"));
        assert!(matches!(statement(b"pool link_pool").unwrap(), Statement::Pool { name, .. } if name == "link_pool"));
        assert!(matches!(statement(b"include rules.ninja").unwrap(), Statement::Include(_)));
        assert!(matches!(statement(b"subninja $dir/sub.ninja").unwrap(), Statement::Subninja(_)));
        assert!(matches!(statement(b"default all tests").unwrap(), Statement::Default(p) if p.len() == 2));
        assert_eq!(binding(b"  depth = 4").unwrap().name, "depth");
    }

    #[test]
    fn errors_say_what_ninja_says() {
        for (line, message) in [
            (&b"build: cc a"[..], "expected path"),
            (b"build a cc b", "expected ':'"),
            (b"build a: ", "expected build command name"),
            (b"x y", "expected '='"),
            (b"default", "expected target name"),
            (b"rule cc extra", "expected newline"),
        ] {
            assert_eq!(statement(line).unwrap_err().message, message, "{}", String::from_utf8_lossy(line));
        }
    }
}
