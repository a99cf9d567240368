using NUnit.Framework;
using HollowKeep.Inventory;

namespace HollowKeep.Tests.EditMode
{
    public class InventoryTests
    {
        [Test]
        public void Remove_ReturnsFalse_WhenNotEnough()
        {
            var inv = new Inventory(8);
            Assert.IsFalse(inv.Remove("torch", 1));
        }
    }
}
