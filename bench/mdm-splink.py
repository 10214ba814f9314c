"""Splink's side of bench/mdm-vs-splink.ts, and the one evaluator both engines are scored with.

Reads <dir>/records.csv (the standardised records Lakeward matched), <dir>/lakeward.csv (its clusters),
<dir>/truth.csv and <dir>/settings.json (the model's comparison levels, blocking rules and the deterministic rules
Splink's λ estimate starts from); runs Splink (DuckDB backend) with the same comparison levels, blocking rules and
training; prints one JSON line: Splink's wall time, scored pairs, peak RSS, and pairwise and B-cubed F1 of both engines.
"""
import json
import resource
import sys
import time

import pandas as pd
import splink
import splink.comparison_level_library as cll
import splink.comparison_library as cl
from splink import DuckDBAPI, Linker, SettingsCreator, block_on
from splink.blocking_analysis import cumulative_comparisons_to_be_scored_from_blocking_rules_data

out = sys.argv[1]
records = pd.read_csv(f"{out}/records.csv", dtype=str, keep_default_na=False).replace({"": None})
truth = pd.read_csv(f"{out}/truth.csv", dtype=str)
lakeward = pd.read_csv(f"{out}/lakeward.csv", dtype=str)
with open(f"{out}/settings.json") as fh:
    model = json.load(fh)


def evaluate(assigned: pd.DataFrame, cluster_col: str) -> dict:
    """Pairwise and B-cubed F1 of a uid → cluster assignment against the truth (records on both sides)."""
    m = assigned.rename(columns={cluster_col: "c"}).merge(truth.rename(columns={"entity_id": "e"}), on="uid")
    ce = m.groupby(["c", "e"]).size()
    cs = m.groupby("c").size()
    es = m.groupby("e").size()
    pairs = lambda s: float((s * (s - 1) / 2).sum())
    tp, predicted, actual = pairs(ce), pairs(cs), pairs(es)
    p = tp / predicted if predicted else 1.0
    r = tp / actual if actual else 1.0
    n = len(m)
    ce_df = ce.rename("n").reset_index()
    bp = float((ce_df["n"] ** 2 / ce_df["c"].map(cs)).sum()) / n
    br = float((ce_df["n"] ** 2 / ce_df["e"].map(es)).sum()) / n
    f1 = lambda a, b: 0.0 if a + b == 0 else 2 * a * b / (a + b)
    return {"pairwise_f1": round(f1(p, r), 4), "precision": round(p, 4), "recall": round(r, 4), "b3_f1": round(f1(bp, br), 4)}


if sys.argv[2:] == ["--evaluate-only"]:  # Splink stopped at the bench's time limit: Lakeward's F1 alone
    print(json.dumps({"lakeward": evaluate(lakeward, "cluster")}))
    sys.exit(0)


def comparison(attr: str, levels: list, swapped_with: list) -> cl.CustomComparison:
    """Lakeward's levels of an attribute: null, exact (for names: or swapped with another name attribute, as
    Lakeward compares them), then each comparison from the strictest, else."""
    exact = cll.ExactMatchLevel(attr)
    if swapped_with:
        crosswise = " OR ".join(
            f"({attr}_l = {o}_r AND {o}_l = {attr}_r AND {attr}_l <> {o}_l)" for o in swapped_with
        )
        exact = cll.CustomLevel(sql_condition=f"{attr}_l = {attr}_r OR {crosswise}", label_for_charts="exact or swapped")
    out_levels = [cll.NullLevel(attr), exact]
    for level in levels:
        if level["type"] == "jaro_winkler":
            out_levels.append(cll.JaroWinklerLevel(attr, level["threshold"]))
        elif level["type"] == "levenshtein":
            out_levels.append(cll.LevenshteinLevel(attr, level["max"]))
        elif level["type"] == "date_distance":
            days = (
                f"abs(date_diff('day', try_strptime({attr}_l, '%Y-%m-%d'), try_strptime({attr}_r, '%Y-%m-%d')))"
                f" <= {level['days']}"
            )
            out_levels.append(cll.CustomLevel(sql_condition=days, label_for_charts=f"within {level['days']} days"))
        else:  # exact: the level above
            continue
    out_levels.append(cll.ElseLevel())
    return cl.CustomComparison(output_column_name=attr, comparison_levels=out_levels)


def key(part) -> str:
    return part if isinstance(part, str) else f"substr({part['attribute']}, 1, {part['prefix']})"


rules = [block_on(*[key(p) for p in keys]) for keys in model["blocking_rules"]]
settings = SettingsCreator(
    link_type="dedupe_only",
    unique_id_column_name="uid",
    comparisons=[comparison(a, spec["comparisons"], spec["swapped_with"]) for a, spec in model["attributes"].items()],
    blocking_rules_to_generate_predictions=rules,
    retain_intermediate_calculation_columns=False,
    retain_matching_columns=False,
)

started = time.perf_counter()


def progress(what: str) -> None:
    rss = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    print(f"  splink: {what} at {time.perf_counter() - started:.1f} s (peak RSS {rss} MB)", file=sys.stderr, flush=True)


linker = Linker(records.drop(columns=["system"]), settings, db_api=DuckDBAPI())
# λ from deterministic rules with an assumed recall, then u from random pairs (about as many as Lakeward's sample:
# every pair of 600 records), then m by EM per blocking rule, as Splink's tutorials do
linker.training.estimate_probability_two_random_records_match(
    [block_on(*rule) for rule in model["lambda_rules"]], recall=0.8
)
progress("λ estimated")
linker.training.estimate_u_using_random_sampling(max_pairs=1.8e5, seed=42)
progress("u estimated")
for rule in rules:
    linker.training.estimate_parameters_using_expectation_maximisation(rule)
progress("m estimated (EM per blocking rule)")
predictions = linker.inference.predict(threshold_match_probability=0.75)
progress("predicted")
clusters = linker.clustering.cluster_pairwise_predictions_at_threshold(predictions, threshold_match_probability=0.75)
splink_clusters = clusters.as_pandas_dataframe()[["uid", "cluster_id"]]
seconds = time.perf_counter() - started
progress("clustered")
linker.misc.save_model_to_json(f"{out}/splink-model.json", overwrite=True)
peak_rss_mb = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)

counts = cumulative_comparisons_to_be_scored_from_blocking_rules_data(
    table_or_tables=records.drop(columns=["system"]),
    blocking_rules=rules,
    link_type="dedupe_only",
    db_api=DuckDBAPI(),
    unique_id_column_name="uid",
)
scored_pairs = int(counts["row_count"].sum())


print(
    json.dumps(
        {
            "version": splink.__version__,
            "seconds": seconds,
            "scored_pairs": scored_pairs,
            "peak_rss_mb": peak_rss_mb,
            "splink": evaluate(splink_clusters, "cluster_id"),
            "lakeward": evaluate(lakeward, "cluster"),
        }
    )
)
