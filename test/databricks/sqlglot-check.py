"""Parses statements with sqlglot's Databricks dialect. Input: JSON file of [{name, sql}]; output: JSON
list of {name, status: structured|command|error, error?, identifiers, strings} on stdout."""
import json
import logging
import sys

import sqlglot
from sqlglot import exp

logging.getLogger("sqlglot").setLevel(logging.ERROR)  # the Command fallback warning is reported as status

results = []
for case in json.load(open(sys.argv[1], encoding="utf-8")):
    out = {"name": case["name"], "identifiers": [], "strings": [], "tokenized": False}
    try:
        sqlglot.tokenize(case["sql"], read="databricks")  # unterminated quotes fail here, even for Commands
        out["tokenized"] = True
        tree = sqlglot.parse_one(case["sql"], read="databricks")
        out["status"] = "command" if isinstance(tree, exp.Command) else "structured"
        if out["status"] == "structured":
            out["identifiers"] = [i.this for i in tree.find_all(exp.Identifier) if i.quoted]
            out["strings"] = [l.this for l in tree.find_all(exp.Literal) if l.is_string]
    except Exception as e:  # noqa: BLE001 - every failure is reported by name
        out["status"] = "error"
        out["error"] = str(e).splitlines()[0][:300]
    results.append(out)
json.dump(results, sys.stdout, ensure_ascii=False)
