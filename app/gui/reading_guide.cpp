// SPDX-License-Identifier: MIT
#include "app/gui/reading_guide.h"
#include "app/gui/widget_helpers.h"

#include "core/formats/presets.h"
#include "core/version.h"

#include <QCoreApplication>

namespace iolab::gui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ReadingGuide", text);
}

} // namespace

QString readingGuideHtml()
{
    QString html;
    html += QStringLiteral("<h2>%1</h2>").arg(tr("How to read the results"));
    html +=
        tr("<p>Each row of the Results table is one <b>case</b>: one way of writing (or reading) a file, "
           "with one chunk size, buffer, sync policy and thread count. IOLab runs each case several times "
           "(<b>repetitions</b>) after unmeasured <b>warm-ups</b>, and shows the middle value.</p>");
    html += QStringLiteral("<h3>%1</h3><dl>").arg(tr("The figures"));
    const auto term = [&html](const QString& name, const QString& meaning) {
        html += QStringLiteral("<dt><b>%1</b></dt><dd>%2</dd>").arg(name, meaning);
    };
    term(tr("Apparent (MB/s)"),
         tr("How fast the program's write calls returned. Most writes land in the page cache, the "
            "system's memory, so this is often far faster than the disk."));
    term(tr("Durable (MB/s)"),
         tr("How fast the data really reached the storage: the bytes written divided by the time until the "
            "final fsync returned. For writes to a file this is the figure that counts, and the app ranks by "
            "it."));
    term(
        tr("Speed-up"),
        tr("How many times faster a case is than the baseline: by default plain stdio (fwrite, default "
           "buffer) for writes, plain read(2) for reads, at the same chunk size, by the rate the results are "
           "ranked by ('Rank by' above the table: durable unless you choose apparent). 2.0x is twice as "
           "fast; 0.5x half as fast. Choose another baseline above the table."));
    term(tr("95% CI"),
         tr("The 95% confidence interval of the mean rate over the repetitions: with this many "
            "repetitions, the true value lies in this range with 95% confidence. When the ranges of two "
            "cases overlap, the difference between them may be noise."));
    term(tr("Trimmed mean"),
         tr("The mean without the fastest and slowest repetitions. Shown only with five repetitions or "
            "more; with three it always equals the median."));
    term(
        tr("Spread (CV)"),
        tr("How much the repetitions of the ranked rate vary, as a share of their mean (the coefficient of "
           "variation; from five repetitions on, of all but the slowest and the fastest). Over 5% the row is "
           "noisy. IOLab calls one case faster than another, and quotes a speed-up as a fact, only when a "
           "t-test over their repetitions finds the difference at 95% confidence; a speed-up within the "
           "noise is greyed. A single repetition has no spread: its order is what was measured, not a "
           "finding."));
    term(
        tr("p50, p99, p99.9"),
        tr("Where IOLab timed each call (a write, a read, a queued request until it completed), how long "
           "the calls took: half of them took at most p50, all but one in a hundred at most p99, all but one "
           "in a thousand at most p99.9. A p99 far above p50 means a few calls stall, when the page cache "
           "flushes or a device queue fills; the Latency tab shows the whole histogram. Empty where the "
           "calls were not timed (the Latency tab says why)."));
    term(tr("IOPS"),
         tr("Calls per second at the median apparent rate: the rate divided by the chunk size, since one "
            "call moves one chunk. The figure storage vendors quote for 4 KiB random I/O."));
    term(tr("QD (queue depth)"),
         tr("How many requests a queued strategy (io_uring, overlapped I/O) keeps in flight at once. A "
            "deeper queue lets a fast SSD work on many requests in parallel and raises the rate, while each "
            "request waits longer; the Queue depth tab shows both. Empty for strategies that wait for each "
            "call."));
    term(tr("CPU s/GiB"),
         tr("CPU seconds (user and system) the case spent per GiB: what the strategy costs the processor, "
            "apart from waiting for the disk."));
    term(tr("Peak RSS"), tr("The most memory the process held during the case."));
    term(tr("Status"),
         tr("ok, failed (the reason says what went wrong) or refused (the combination cannot run on this "
            "target, such as O_DIRECT on tmpfs)."));
    html += QStringLiteral("</dl><h3>%1</h3><dl>").arg(tr("The warnings"));
    term(tr("noisy"),
         tr("The repetitions of the rate the case is ranked by (durable for writes to a file, unless Rank by "
            "says apparent) vary by more than 5% (CV): compare such a case with others only when the "
            "difference is large. From five repetitions on, the fastest and the slowest are left out first, "
            "as "
            "for the trimmed mean, so a single repetition slowed by something else on the machine does not "
            "make the case noisy."));
    term(tr("short"),
         tr("A repetition was so short that timer and scheduler noise weigh heavily: use a larger size."));
    term(tr("apparent vs durable"),
         tr("The writes returned quickly but most of the time went into the final fsync: the apparent figure "
            "is the cache's speed, not the disk's."));
    term(tr("cache"),
         tr("Reads that should have come from the disk came, in part or in whole, from memory."));
    term(tr("in memory"), tr("The target lives in RAM (tmpfs): durable figures mean nothing there."));
    html += QStringLiteral("</dl><h3>%1</h3>").arg(tr("Groups"));
    html +=
        tr("<p>Writes into a pipe or the null device never touch a disk, so they are compared only with each "
           "other, never with file writes; each group has its own fastest case.</p>");
    html += QStringLiteral("<h3>%1</h3><ul>").arg(tr("The built-in presets"));
    for (const auto& preset : builtinPresets())
        html += QStringLiteral("<li><b>%1</b>: %2</li>")
                    .arg(qs(preset.name).toHtmlEscaped(), qs(preset.description).toHtmlEscaped());
    html += QStringLiteral("</ul><p>%1</p>")
                .arg(tr("More on each preset and the article it comes from: <a href=\"%1\">%1</a>")
                         .arg(presetsHelpUrl().toString()));
    return html;
}

QUrl presetsHelpUrl()
{
    return QUrl(QStringLiteral(IOLAB_HOMEPAGE "/blob/v" IOLAB_VERSION "/resources/manual/presets.md"));
}

} // namespace iolab::gui
