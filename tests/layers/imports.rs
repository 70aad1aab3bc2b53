//! Which file of `src/` uses which, read with `syn`: every path a file names (in its `use`
//! declarations and its code) is resolved, through the modules' re-exports, to the file
//! that defines what it names. A re-export (`pub use`, `pub(crate) use`) is not a use of
//! its own: a folder's `mod.rs` that lists its children's items does not use them, and
//! whoever names an item through it uses the file that defines it. Tests (`tests.rs`,
//! `tests/` folders, items under `#[cfg(test)]`) are left out, as the layers leave them
//! out. Macros' bodies are token streams, not read.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// A module: the file it is written in, and what it holds.
#[derive(Default)]
struct Module {
    /// The file, relative to `src/` (an inline module's is its parent's).
    file: String,
    /// Child modules, by name, to their module path.
    children: BTreeMap<String, String>,
    /// Names it defines (functions, types, traits, constants, statics, macros).
    items: BTreeSet<String>,
    /// Names it brings in with `use` (alias → path), and whether the `use` is a
    /// re-export (visible outside the module).
    uses: BTreeMap<String, (Vec<String>, bool)>,
    /// `use path::*`: the paths globbed.
    globs: Vec<Vec<String>>,
    /// Every path its code names, and its private `use` paths: what it uses.
    named: Vec<Vec<String>>,
}

/// The crate's modules by module path (`""`: the root, `read::eventlog`).
pub struct Crate {
    modules: BTreeMap<String, Module>,
}

/// Where a path leads: a module, or the file that defines an item.
#[derive(Clone, Debug, PartialEq)]
enum Target {
    Module(String),
    Item(String),
}

fn join(parent: &str, name: &str) -> String {
    match parent {
        "" => name.to_string(),
        p => format!("{p}::{name}"),
    }
}

fn parent_of(module: &str) -> String {
    module
        .rsplit_once("::")
        .map_or(String::new(), |(p, _)| p.to_string())
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && {
            let text = a.meta.to_token_stream_string();
            text.contains("test") && !text.contains("not")
        }
    })
}

trait MetaText {
    fn to_token_stream_string(&self) -> String;
}

impl MetaText for syn::Meta {
    fn to_token_stream_string(&self) -> String {
        match self {
            syn::Meta::List(l) => l.tokens.to_string(),
            _ => String::new(),
        }
    }
}

/// Every path named in code, test items left out.
#[derive(Default)]
struct Paths(Vec<Vec<String>>);

impl<'ast> Visit<'ast> for Paths {
    // `pub(crate)` and `#[doc]` name no item.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}
    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}
    fn visit_path(&mut self, p: &'ast syn::Path) {
        self.0
            .push(p.segments.iter().map(|s| s.ident.to_string()).collect());
        syn::visit::visit_path(self, p);
    }
    fn visit_item(&mut self, i: &'ast syn::Item) {
        if !item_is_test(i) && !matches!(i, syn::Item::Mod(_) | syn::Item::Use(_)) {
            syn::visit::visit_item(self, i);
        }
    }
    fn visit_impl_item(&mut self, i: &'ast syn::ImplItem) {
        let attrs = match i {
            syn::ImplItem::Fn(f) => &f.attrs,
            syn::ImplItem::Const(c) => &c.attrs,
            syn::ImplItem::Type(t) => &t.attrs,
            _ => return syn::visit::visit_impl_item(self, i),
        };
        if !is_test(attrs) {
            syn::visit::visit_impl_item(self, i);
        }
    }
}

fn item_is_test(i: &syn::Item) -> bool {
    is_test(item_attrs(i))
}

/// An item's attributes (none for the kinds that cannot hold a test or an `allow`).
fn item_attrs(i: &syn::Item) -> &[syn::Attribute] {
    match i {
        syn::Item::Const(x) => &x.attrs,
        syn::Item::Enum(x) => &x.attrs,
        syn::Item::Fn(x) => &x.attrs,
        syn::Item::Impl(x) => &x.attrs,
        syn::Item::Macro(x) => &x.attrs,
        syn::Item::Mod(x) => &x.attrs,
        syn::Item::Static(x) => &x.attrs,
        syn::Item::Struct(x) => &x.attrs,
        syn::Item::Trait(x) => &x.attrs,
        syn::Item::Type(x) => &x.attrs,
        syn::Item::Union(x) => &x.attrs,
        syn::Item::Use(x) => &x.attrs,
        _ => &[],
    }
}

/// The names a `use` tree brings in: (alias, path), and the globbed paths.
fn use_tree(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(String, Vec<String>)>,
    globs: &mut Vec<Vec<String>>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_tree(&p.tree, prefix, out, globs);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            let mut path = prefix.clone();
            if name != "self" {
                path.push(name.clone());
            }
            let alias = if name == "self" {
                prefix.last().cloned().unwrap_or_default()
            } else {
                name
            };
            out.push((alias, path));
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix.clone();
            if r.ident != "self" {
                path.push(r.ident.to_string());
            }
            out.push((r.rename.to_string(), path));
        }
        syn::UseTree::Glob(_) => globs.push(prefix.clone()),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_tree(t, prefix, out, globs);
            }
        }
    }
}

impl Crate {
    /// Reads every module of the crate whose root is `src/lib.rs`.
    pub fn read(src: &Path) -> Crate {
        let mut c = Crate {
            modules: BTreeMap::new(),
        };
        let root = src.join("lib.rs");
        c.read_file(src, &root, String::new());
        c
    }

    fn read_file(&mut self, src: &Path, file: &Path, module: String) {
        let text = std::fs::read_to_string(file).expect("source readable");
        let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let rel = file
            .strip_prefix(src)
            .unwrap_or(file)
            .to_string_lossy()
            .into_owned();
        // A file's children: `a/b.rs` (or `a/b/mod.rs`) has them in `a/b/`; `lib.rs`
        // and `mod.rs` in their own folder.
        let dir: PathBuf = match file.file_name().and_then(|n| n.to_str()) {
            Some("lib.rs" | "mod.rs") => file.parent().unwrap_or(src).to_path_buf(),
            _ => file.with_extension(""),
        };
        self.read_items(src, &dir, &rel, module, &parsed.items);
    }

    fn read_items(
        &mut self,
        src: &Path,
        dir: &Path,
        rel: &str,
        module: String,
        items: &[syn::Item],
    ) {
        let mut m = Module {
            file: rel.to_string(),
            ..Module::default()
        };
        let mut paths = Paths::default();
        let mut inline = Vec::new();
        for item in items {
            if item_is_test(item) {
                continue;
            }
            let name = |i: &syn::Ident| i.to_string();
            match item {
                syn::Item::Mod(md) => {
                    let child = join(&module, &md.ident.to_string());
                    m.children.insert(md.ident.to_string(), child.clone());
                    match &md.content {
                        Some((_, content)) => inline.push((child, md.ident.to_string(), content)),
                        None => {
                            let path = explicit_path(&md.attrs)
                                .map(|p| dir.join(p))
                                .unwrap_or_else(|| {
                                    let flat = dir.join(format!("{}.rs", md.ident));
                                    if flat.exists() {
                                        flat
                                    } else {
                                        dir.join(md.ident.to_string()).join("mod.rs")
                                    }
                                });
                            if path.exists() {
                                self.read_file(src, &path, child);
                            }
                        }
                    }
                }
                syn::Item::Use(u) => {
                    let mut found = Vec::new();
                    use_tree(&u.tree, &mut Vec::new(), &mut found, &mut m.globs);
                    let export = !matches!(u.vis, syn::Visibility::Inherited);
                    for (alias, path) in found {
                        if !export {
                            m.named.push(path.clone());
                        }
                        m.uses.insert(alias, (path, export));
                    }
                }
                syn::Item::Fn(f) => drop(m.items.insert(name(&f.sig.ident))),
                syn::Item::Struct(s) => drop(m.items.insert(name(&s.ident))),
                syn::Item::Enum(e) => drop(m.items.insert(name(&e.ident))),
                syn::Item::Trait(t) => drop(m.items.insert(name(&t.ident))),
                syn::Item::Const(k) => drop(m.items.insert(name(&k.ident))),
                syn::Item::Static(s) => drop(m.items.insert(name(&s.ident))),
                syn::Item::Type(t) => drop(m.items.insert(name(&t.ident))),
                syn::Item::Union(u) => drop(m.items.insert(name(&u.ident))),
                syn::Item::Macro(mac) => {
                    if let Some(i) = &mac.ident {
                        m.items.insert(name(i));
                    }
                }
                _ => {}
            }
            paths.visit_item(item);
        }
        m.named.extend(paths.0);
        self.modules.insert(module, m);
        for (child, name, content) in inline {
            self.read_items(src, &dir.join(name), rel, child, content);
        }
    }

    /// Where `path`, named in `module`, leads.
    fn resolve(&self, module: &str, path: &[String], depth: usize) -> Option<Target> {
        let (first, rest) = path.split_first()?;
        if depth > 40 {
            return None;
        }
        match first.as_str() {
            "crate" => self.member(String::new(), rest, depth + 1),
            "super" => {
                let parent = parent_of(module);
                match rest.first().map(String::as_str) {
                    Some("super") => self.resolve(&parent, rest, depth + 1),
                    _ => self.member(parent, rest, depth + 1),
                }
            }
            "self" => self.member(module.to_string(), rest, depth + 1),
            _ => self.member(module.to_string(), path, depth + 1),
        }
    }

    /// `path` as members of `module`, from it on.
    fn member(&self, module: String, path: &[String], depth: usize) -> Option<Target> {
        let m = self.modules.get(&module)?;
        let Some((first, rest)) = path.split_first() else {
            return Some(Target::Module(module));
        };
        let found = if let Some(child) = m.children.get(first) {
            Some(Target::Module(child.clone()))
        } else if m.items.contains(first) {
            Some(Target::Item(m.file.clone()))
        } else if let Some((to, _)) = m.uses.get(first) {
            self.resolve(&module, to, depth + 1)
        } else {
            (m.globs.iter()).find_map(|g| {
                let mut p = g.clone();
                p.push(first.clone());
                self.resolve(&module, &p, depth + 1)
            })
        }?;
        match found {
            Target::Module(next) => self.member(next, rest, depth + 1),
            item => Some(item),
        }
    }

    /// The file of a target.
    fn file_of(&self, t: &Target) -> Option<String> {
        match t {
            Target::Item(f) => Some(f.clone()),
            Target::Module(m) => self.modules.get(m).map(|m| m.file.clone()),
        }
    }

    /// The paths of `from` that lead into `to` (to say why a file uses another).
    pub fn why(&self, from: &str, to: &str) -> Vec<String> {
        let mut out = Vec::new();
        for (name, m) in &self.modules {
            if m.file != from {
                continue;
            }
            for path in &m.named {
                let t = self.resolve(name, path, 0).and_then(|t| self.file_of(&t));
                if t.as_deref() == Some(to) && !out.contains(&path.join("::")) {
                    out.push(path.join("::"));
                }
            }
        }
        out
    }

    /// Every file of the crate, and whether it allows `lint` (an inner or outer
    /// `allow` attribute naming it, outside tests).
    pub fn allowing(&self, src: &Path, lint: &str) -> Vec<String> {
        let files: BTreeSet<&String> = self.modules.values().map(|m| &m.file).collect();
        let mut out = Vec::new();
        for file in files {
            if is_test_file(file) {
                continue;
            }
            let text = std::fs::read_to_string(src.join(file)).expect("source readable");
            let parsed = syn::parse_file(&text).expect("parses");
            let allows = |attrs: &[syn::Attribute]| {
                attrs.iter().any(|a| {
                    a.path().is_ident("allow") && a.meta.to_token_stream_string().contains(lint)
                })
            };
            let items = parsed.items.iter().filter(|i| !item_is_test(i));
            if allows(&parsed.attrs) || items.into_iter().any(|i| allows(item_attrs(i))) {
                out.push(file.clone());
            }
        }
        out
    }

    /// Each file and the files it uses (not itself; test files left out).
    pub fn edges(&self) -> BTreeMap<String, BTreeSet<String>> {
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (name, m) in &self.modules {
            if is_test_file(&m.file) {
                continue;
            }
            let to = edges.entry(m.file.clone()).or_default();
            for path in &m.named {
                let target = self.resolve(name, path, 0);
                // A module alone is no expression or type: a one-word path that names
                // one is a variable of the same name.
                if path.len() == 1 && matches!(target, Some(Target::Module(_))) {
                    continue;
                }
                let Some(file) = target.and_then(|t| self.file_of(&t)) else {
                    continue;
                };
                if file != m.file && !is_test_file(&file) {
                    to.insert(file);
                }
            }
        }
        edges
    }
}

/// A `#[path = "…"]` attribute's file.
fn explicit_path(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

/// Whether a file is test code: `tests.rs`, or under a `tests/` folder.
pub fn is_test_file(rel: &str) -> bool {
    let parts: Vec<&str> = rel.split('/').collect();
    parts.last() == Some(&"tests.rs") || parts[..parts.len() - 1].contains(&"tests")
}

/// The groups of files that use each other, each sorted, largest first: every file of a
/// group reaches every other through what it uses.
pub fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Tarjan's strongly connected components, without recursion.
    let names: Vec<&String> = edges.keys().collect();
    let index_of: BTreeMap<&String, usize> =
        names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let succ: Vec<Vec<usize>> = names
        .iter()
        .map(|n| {
            edges[*n]
                .iter()
                .filter_map(|t| index_of.get(t).copied())
                .collect()
        })
        .collect();
    let n = names.len();
    let (mut index, mut low) = (vec![usize::MAX; n], vec![0; n]);
    let mut on_stack = vec![false; n];
    let (mut stack, mut groups, mut next) = (Vec::new(), Vec::new(), 0);
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        let mut work = vec![(start, 0usize)];
        while let Some((v, i)) = work.pop() {
            if i == 0 {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = succ[v].get(i) {
                work.push((v, i + 1));
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            if low[v] == index[v] {
                let mut group = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    group.push(names[w].clone());
                    if w == v {
                        break;
                    }
                }
                if group.len() > 1 {
                    group.sort();
                    groups.push(group);
                }
            }
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
        }
    }
    groups.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    groups
}
