"""DQX's own loader as an oracle for Lakeward's save-to-delta.

Reads the Delta table Lakeward wrote (delta-rs, from the files on disk) into a local Spark DataFrame with the
file's own schema, then runs DQX's table-storage loader code on it (DataFrameConverter.from_dataframe, what
TableChecksStorageHandler.load calls after spark.read.table) and DQX's validate_checks on what it loaded.
Prints {"checks": [...], "errors": [...]} as JSON.

usage: dqx_load_checks.py <delta table folder> <run_config_name>
"""

import json
import os
import sys

from deltalake import DeltaTable
from pyspark.sql import SparkSession

from databricks.labs.dqx.checks_storage import DataFrameConverter
from databricks.labs.dqx.engine import DQEngineCore


def main() -> None:
    path, run_config_name = sys.argv[1], sys.argv[2]
    arrow = DeltaTable(path).to_pyarrow_table()
    spark = (
        SparkSession.builder.master("local[1]")
        .appName("dqx-oracle")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.driver.host", "127.0.0.1")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    try:
        df = spark.createDataFrame(arrow)
        checks = DataFrameConverter.from_dataframe(df, run_config_name=run_config_name)
        status = DQEngineCore.validate_checks(checks)
        print(json.dumps({"checks": checks, "errors": [str(e) for e in status.errors]}, default=str))
    finally:
        spark.stop()


if __name__ == "__main__":
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    main()
