using UnityEngine;

namespace Lantern.Game
{
    public class GameSession : MonoBehaviour
    {
        public PlayerState Player { get; private set; }
        public int ActiveSlot { get; private set; }

        public void StartNew(int slot)
        {
            ActiveSlot = slot;
            Player = PlayerState.CreateDefault();
        }
    }
}
