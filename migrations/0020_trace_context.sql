-- The trace a job or a webhook notification was made in, as a W3C traceparent (version, trace id,
-- parent span id, flags: ids only, nothing of a person): its work joins that trace when tracing is on
-- (docs/operations.md, "Traces"). NULL when tracing was off or nothing was traced.
ALTER TABLE jobs ADD COLUMN trace_parent text;
ALTER TABLE webhook_notifications ADD COLUMN trace_parent text;
