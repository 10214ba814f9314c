/** Connected components of an edge list: each record's label is the smallest uid of its component. */
export function componentLabels(edges: { a: string; b: string }[]): Map<string, string> {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    for (let p = parent.get(root); p !== undefined && p !== root; p = parent.get(root)) root = p;
    while (x !== root) {
      const next = parent.get(x)!;
      parent.set(x, root);
      x = next;
    }
    return root;
  };
  for (const { a, b } of edges) {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const [ra, rb] = [find(a), find(b)];
    // the smaller uid is the root, so a component's root is its smallest uid
    if (ra < rb) parent.set(rb, ra);
    else if (rb < ra) parent.set(ra, rb);
  }
  return new Map([...parent.keys()].map((uid) => [uid, find(uid)]));
}
