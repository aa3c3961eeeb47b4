#!/usr/bin/env python3
"""No two modules import each other: the module graph of a Rust crate's src/ from its
`crate::…` and `super::…` paths, with every strongly connected component of more than one module
printed; exit status 1 if there is any.

A name taken from an ancestor module (a child naming its parent's re-exports) is resolved through
the parent's `pub use child::…` lines to the sibling that defines it; a parent using its own
children is not an edge of a cycle (that is what a module tree is).

Usage: modcycles.py SRC_DIR"""
import os, re, sys
from collections import defaultdict
root = sys.argv[1]
mods = {}
for d, _, fs in os.walk(root):
    for f in fs:
        if not f.endswith('.rs'): continue
        p = os.path.join(d, f); rel = os.path.relpath(p, root)[:-3].split(os.sep)
        if rel[-1] in ('mod', 'lib', 'main'): rel = rel[:-1]
        mods[tuple(rel)] = p
def resolve(path):
    best = ()
    for i in range(len(path), -1, -1):
        if tuple(path[:i]) in mods: return tuple(path[:i]), path[i:]
    return (), path
reexp = {}
for m, p in mods.items():
    src = open(p).read()
    for mm in re.finditer(r'pub use (\w+)::(\{[^;]*\}|[\w:*]+);', src):
        child = m + (mm.group(1),)
        if child in mods:
            for name in re.findall(r'\w+', mm.group(2)):
                reexp.setdefault(m, {})[name] = child
edges = defaultdict(set)
for m, p in mods.items():
    src = open(p).read()
    src = re.sub(r'//[^\n]*', '', src)
    # cut test modules
    src = re.split(r'#\[cfg\(test\)\]\s*mod tests', src)[0]
    for mm in re.finditer(r'\b(crate|super)((?:::\w+)+)(?:::\{([^;]*?)\})?', src):
        kind, tail, group = mm.group(1), mm.group(2), mm.group(3)
        parts = tail.strip(':').split('::')
        if kind == 'crate': base = []
        else:
            base = list(m[:-1]) if not p.endswith(('mod.rs', 'lib.rs')) else list(m[:-1])
            # `super` from a/b.rs is a; from a/b/mod.rs is a
        full = base + parts
        target, rest = resolve(full)
        names = [rest[0]] if rest else []
        if group: names += re.findall(r'\w+', group)
        targets = {target}
        if target != m and len(target) < len(m) and m[:len(target)] == target:
            # a name from an ancestor: which of its children re-exports it?
            targets = {reexp.get(target, {}).get(n) for n in names} - {None}
            targets = {t for t in targets if m[:len(t)] != t}
        for t in targets:
            if t != m and not (len(t) < len(m) and m[:len(t)] == t) and not (len(m) < len(t) and t[:len(m)] == m):
                edges[m].add(t)
# Tarjan
index = {}; low = {}; st = []; on = set(); sccs = []; c = [0]
sys.setrecursionlimit(10000)
def sc(v):
    index[v] = low[v] = c[0]; c[0] += 1; st.append(v); on.add(v)
    for w in edges[v]:
        if w not in index: sc(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = st.pop(); on.discard(w); comp.append(w)
            if w == v: break
        if len(comp) > 1: sccs.append(comp)
for v in list(mods):
    if v not in index: sc(v)
for comp in sccs:
    names = sorted('::'.join(x) or 'crate' for x in comp)
    print('cycle:', ', '.join(names))
    for a in comp:
        for b in edges[a]:
            if b in comp: print('   ', '::'.join(a), '->', '::'.join(b))
print(f'{root}: {len(mods)} modules, {sum(len(e) for e in edges.values())} edges, {len(sccs)} cycles')
sys.exit(1 if sccs else 0)
