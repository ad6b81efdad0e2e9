-- Printed by wrk once a run ends: the latency distribution as 1,001 points (the fastest, every
-- tenth of a percent, the slowest), in microseconds, so that runs cut into slices can be added up
-- (bench/support/slices.ts).
done = function(summary, latency, requests)
  local out = { "QUANTILES", latency.min }
  for i = 1, 999 do out[#out + 1] = latency:percentile(i / 10) end
  out[#out + 1] = latency.max
  io.write(table.concat(out, " "), "\n")
end
