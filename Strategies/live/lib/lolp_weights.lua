-- LoL+'s dynamic weight selection: the weights of the SOM's four features (throughput, latency,
-- rebuffering, switch) are chosen, per decision, as the vector among all 5^4 combinations of
-- {0.2, 0.4, 0.6, 0.8, 1} whose QoE is highest for some level whose next buffer stays above the
-- minimum. Bentaleb et al., IEEE Trans. Multimedia 2022, doi:10.1109/TMM.2021.3079288; as
-- dash.js v5.0.0 src/streaming/rules/abr/lolp/LoLpWeightSelector.js has it.
-- Pure functions, without require; the QoE module is passed in.

local W = {}

W.values = { 0.2, 0.4, 0.6, 0.8, 1 }

-- A selector as dash.js's LoLpRule builds one per decision: target latency 1.5 s and minimum
-- buffer 0.3 s by default, and a previous latency of 0 (dash.js recreates the selector for every
-- decision, so its latency constraint compares against 0).
function W.new(target_latency_s, buffer_min_s, segment_duration_s, qoe, qoe_weights)
  return {
    target_latency_s = target_latency_s,
    buffer_min_s = buffer_min_s,
    segment_duration_s = segment_duration_s,
    qoe = qoe,
    qoe_weights = qoe_weights,
    previous_latency_s = 0,
  }
end

-- Buffer after downloading a segment that takes `download_time_s`: a download longer than a
-- segment drains a whole segment, a shorter one adds what it does not use.
function W.next_buffer(selector, buffer_s, download_time_s)
  local d = selector.segment_duration_s
  if download_time_s > d then return buffer_s - d end
  return buffer_s + d - download_time_s
end

function W.next_buffer_with_bitrate(selector, bitrate_bps, buffer_s, throughput_bps)
  return W.next_buffer(selector, buffer_s, bitrate_bps * selector.segment_duration_s / throughput_bps)
end

-- The weight vector {throughput, latency, buffer, switch} of the highest QoE over the neurons
-- (each with .bitrate_bps and .state.latency), or nil when no neuron meets the constraints.
-- A vector's QoE depends only on its latency and buffer weights (their inverses scale the
-- latency and rebuffering terms), so the 25 pairs are scored per neuron; the winner is the
-- vector dash.js's scan of all 625 finds first: throughput and switch weights 0.2, and the
-- first (latency, buffer) pair in that order with a strictly higher QoE.
function W.find(selector, neurons, latency_s, buffer_s, throughput_bps, playback_rate)
  local values = W.values
  local best_qoe, best_latency_weight, best_buffer_weight = nil, nil, nil
  local delta_latency = math.abs(latency_s - selector.previous_latency_s)
  for _, neuron in ipairs(neurons) do
    local download_time = neuron.bitrate_bps * selector.segment_duration_s / throughput_bps
    local next_buffer = W.next_buffer(selector, buffer_s, download_time)
    local rebuffer = math.max(0.00001, download_time - next_buffer)
    -- Constraints: latency within the target plus its change, next buffer above the minimum.
    local feasible = latency_s <= selector.target_latency_s + delta_latency and next_buffer >= selector.buffer_min_s
    if feasible then
      for _, latency_weight in ipairs(values) do
        for _, buffer_weight in ipairs(values) do
          -- (1 / w) × x, not x / w: the products round as dash.js's do.
          local qoe = selector.qoe.single(selector.qoe_weights, neuron.bitrate_bps, (1 / buffer_weight) * rebuffer,
            (1 / latency_weight) * neuron.state.latency, playback_rate)
          if best_qoe == nil or qoe > best_qoe then
            best_qoe, best_latency_weight, best_buffer_weight = qoe, latency_weight, buffer_weight
          end
        end
      end
    end
  end
  selector.previous_latency_s = latency_s
  if best_qoe == nil then return nil end
  return { values[1], best_latency_weight, best_buffer_weight, values[1] }
end

return W
