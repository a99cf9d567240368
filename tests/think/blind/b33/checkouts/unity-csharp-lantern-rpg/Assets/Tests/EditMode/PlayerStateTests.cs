using NUnit.Framework;
using Lantern.Game;

namespace Lantern.Tests.EditMode
{
    public class PlayerStateTests
    {
        [Test]
        public void CreateDefault_HasFullHealth()
        {
            var p = PlayerState.CreateDefault();
            Assert.AreEqual(p.MaxHealth, p.Health);
        }
    }
}
