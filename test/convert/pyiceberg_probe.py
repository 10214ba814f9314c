"""pyiceberg as an independent Iceberg reader: read <metadata.json> [snapshot_id] -> JSON {schema, rows, snapshots}."""
import json
import sys

from pyiceberg.table import StaticTable


def norm(v):
    if v is None:
        return None
    if isinstance(v, bool):
        return "true" if v else "false"
    if hasattr(v, "isoformat"):
        return v.isoformat()
    return str(v)


def main():
    t = StaticTable.from_metadata(sys.argv[1])
    snap = int(sys.argv[2]) if len(sys.argv) > 2 else None
    table = t.scan(snapshot_id=snap).to_arrow() if snap is not None else t.scan().to_arrow()
    rows = [{k: norm(v) for k, v in r.items()} for r in table.to_pylist()]
    rows.sort(key=lambda r: json.dumps(r, sort_keys=True))
    schema = [{"id": f.field_id, "name": f.name, "type": str(f.field_type), "required": f.required} for f in t.schema().fields]
    print(json.dumps({"schema": schema, "rows": rows, "snapshots": [s.snapshot_id for s in t.metadata.snapshots]}))


if __name__ == "__main__":
    main()
