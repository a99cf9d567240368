using NUnit.Framework;
using Brickfall.Gameplay;

namespace Brickfall.Tests.EditMode
{
    public class ComboTrackerTests
    {
        [Test]
        public void Reset_ClearsMultiplier()
        {
            var c = new ComboTracker();
            c.RegisterHit(); c.RegisterHit();
            c.Reset();
            Assert.AreEqual(1, c.Multiplier);
        }
    }
}
