using NUnit.Framework;
using ArenaTactics.Combat;

namespace ArenaTactics.Tests.EditMode
{
    public class DamageCalculatorTests
    {
        [Test]
        public void Compute_NeverBelowOne() => Assert.AreEqual(1, DamageCalculator.Compute(2, 50, 1f));

        [TestCase(10, 2, 1f, 8)]
        [TestCase(10, 2, 2f, 18)]
        public void Compute_AppliesTypeMultiplier(int atk, int def, float mult, int expected)
            => Assert.AreEqual(expected, DamageCalculator.Compute(atk, def, mult));
    }
}
