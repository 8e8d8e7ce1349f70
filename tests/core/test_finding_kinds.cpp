// SPDX-License-Identifier: MIT
// The kinds of finding, each declared once (core/analysis/finding_kinds.h): every kind of the enum has a
// declaration, in its order, complete for what its mark asks, and toString() reads it.
#include "core/analysis/finding_kinds.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cctype>
#include <set>
#include <stdexcept>

using namespace iolab;

TEST(FindingKinds, EveryKindOfTheEnumIsDeclaredOnceInItsOrder)
{
    const auto& kinds = findingKinds();
    // Finding::Kind::Count follows the last kind: a kind added to the enum without a declaration fails here.
    ASSERT_EQ(kinds.size(), static_cast<std::size_t>(Finding::Kind::Count));
    std::set<std::string> ids;
    std::set<std::string> titles;
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        const auto kind = static_cast<Finding::Kind>(i);
        const FindingKindSpec& spec = findingKind(kind);
        EXPECT_EQ(&spec, &kinds[i]);
        EXPECT_EQ(spec.kind, kind) << "declaration " << i << " (" << spec.id
                                   << ") is out of the enum's order";
        EXPECT_FALSE(spec.id.empty()) << i;
        EXPECT_EQ(spec.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz-"), std::string::npos) << spec.id;
        EXPECT_FALSE(spec.title.empty()) << spec.id;
        EXPECT_TRUE(ids.insert(spec.id).second) << "two kinds declared as " << spec.id;
        EXPECT_TRUE(titles.insert(spec.title).second) << "two kinds titled " << spec.title;
        EXPECT_EQ(toString(kind), spec.title);
    }
    EXPECT_THROW(findingKind(Finding::Kind::Count), std::logic_error);
}

// A highlight of the Summary gives its kind's advice and explains its terms; the answer itself (the fastest)
// is never a highlight, so it declares neither.
TEST(FindingKinds, EachDeclarationHoldsWhatItsMarkNeeds)
{
    std::size_t answers = 0;
    for (const FindingKindSpec& spec : findingKinds()) {
        std::set<Term> terms(spec.terms.begin(), spec.terms.end());
        EXPECT_EQ(terms.size(), spec.terms.size()) << spec.id << " lists a term twice";
        if (spec.mark == FindingMark::Answer) {
            ++answers;
            EXPECT_TRUE(spec.advice.empty()) << spec.id;
            EXPECT_TRUE(spec.terms.empty()) << spec.id;
            continue;
        }
        EXPECT_GE(spec.importance, 0) << spec.id;
        ASSERT_FALSE(spec.advice.empty()) << spec.id << " has no advice";
        EXPECT_TRUE(std::isupper(static_cast<unsigned char>(spec.advice.front()))) << spec.advice;
        EXPECT_EQ(spec.advice.back(), '.') << spec.advice;
    }
    EXPECT_EQ(answers, 1u) << "the fastest is the one answer";
    EXPECT_EQ(findingKind(Finding::Kind::Fastest).mark, FindingMark::Answer);
}

// What the reports have always shown (their tests check the sentences): the titles, the three kinds marked
// bad, and the Summary's order of importance.
TEST(FindingKinds, TheDeclarationsKeepTheReportsTitlesMarksAndOrder)
{
    EXPECT_EQ(toString(Finding::Kind::DirectIgnored), "O_DIRECT not honoured");
    EXPECT_EQ(toString(Finding::Kind::CpuBound), "CPU-bound");
    EXPECT_EQ(toString(Finding::Kind::Storage), "storage stack");
    std::vector<std::string> bad;
    for (const FindingKindSpec& spec : findingKinds()) {
        if (spec.mark == FindingMark::Bad)
            bad.push_back(spec.id);
    }
    EXPECT_THAT(bad, ::testing::ElementsAre("direct-ignored", "failed", "cancelled"));
    const auto importance = [](Finding::Kind kind) {
        return findingKind(kind).importance;
    };
    using K = Finding::Kind;
    const std::vector<K> order{K::DirectIgnored, K::CacheIllusion, K::Failed,   K::Cancelled,  K::Storage,
                               K::FlushHonesty,  K::CacheCliff,    K::CpuBound, K::DurableGap, K::Noise,
                               K::Short,         K::FinalFlush,    K::Tail,     K::QueueDepth};
    for (std::size_t i = 1; i < order.size(); ++i)
        EXPECT_LT(importance(order[i - 1]), importance(order[i])) << toString(order[i]);
    EXPECT_EQ(importance(K::Compression), importance(K::CacheCliff)) << "a cache cliff and compression share "
                                                                        "a place among the highlights";
}
