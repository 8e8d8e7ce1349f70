// SPDX-License-Identifier: MIT
// A result's headline figures in Prometheus's text exposition format (version 0.0.4), the format
// node_exporter's textfile collector reads (iolab-cli run --prometheus FILE.prom, iolab report --prometheus):
// support teams that watch their workstations with Prometheus see each machine's storage beside its other
// metrics. Every metric is named iolab_..., with its unit in its name in base units (bytes, seconds), and
// labelled with the machine (the host name), the target (its path) and, per case, the case (its label) and
// its strategy. HELP texts never change with the run, so that files of several runs (one per target) merge in
// the collector. No sample carries a timestamp: the textfile collector refuses them.
#pragma once

#include "core/model/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace iolab {

class Registry;

enum class PrometheusType
{
    Gauge,
    Summary
};
std::string_view toString(PrometheusType type); // "gauge", "summary"

// One metric family the exposition can hold: its name, type and HELP text.
struct PrometheusFamily
{
    std::string_view name;
    PrometheusType type = PrometheusType::Gauge;
    std::string_view help;
};

// Every family resultToPrometheus() can write, in the order it writes them (a family without a sample for a
// result is left out of that result's text).
const std::vector<PrometheusFamily>& prometheusFamilies();

// The names a query can use for a family: its own, and for a summary its _sum and _count series too.
std::vector<std::string> prometheusSeriesNames(const PrometheusFamily& family);

// A label value as the format spells it between its double quotes: backslash, double quote and line feed
// escaped (\\, \", \n), and any byte that is not part of valid UTF-8 replaced by U+FFFD.
std::string prometheusLabelValue(std::string_view value);

// The result as the text exposition: per case its rates, IOPS, call and sync latency, whether it ran ok, the
// health verdict per dimension (core/analysis/health_verdict.h, which needs `registry` to tell what a case
// measures; without one no verdict is written), and the run's own info. A redacted result
// (core/formats/result_redact.h) gives redacted labels: the machine and target are its placeholders.
std::string resultToPrometheus(const RunResult& result, const Registry* registry);

} // namespace iolab
