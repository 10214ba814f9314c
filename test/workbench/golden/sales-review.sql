-- Databricks notebook source
-- MAGIC %md
-- MAGIC # Sales review
-- MAGIC
-- MAGIC Orders by region, **this week**.
-- notes: Start with the headline number.

-- COMMAND ----------

SELECT region, count(*) AS orders
FROM wb.s.orders
GROUP BY region
-- notes: EU should lead.
-- notes: Mention the outlier.

-- COMMAND ----------

-- A comment that is part of the SQL
SELECT 1 AS one
