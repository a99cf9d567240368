#include <gtest/gtest.h>
#include "lexkit/tokenizer.hpp"

using lexkit::Tokenizer;
using lexkit::TokenKind;

TEST(Tokenizer, SplitsIdentifiersAndPunctuation) {
    Tokenizer t{"key = value;"};
    auto toks = t.all();
    ASSERT_EQ(toks.size(), 4u);
    EXPECT_EQ(toks[0].kind, TokenKind::Identifier);
    EXPECT_EQ(toks[1].kind, TokenKind::Equals);
}

TEST(Tokenizer, DecodesSimpleEscapes) {
    Tokenizer t{R"("a\tb")"};
    EXPECT_EQ(t.next().text, "a\tb");
}
