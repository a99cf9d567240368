namespace ArenaTactics.Combat
{
    public static class DamageCalculator
    {
        public static int Compute(int attack, int defense, float typeMultiplier)
        {
            var raw = attack * typeMultiplier - defense;
            return raw < 1 ? 1 : (int)raw;
        }
    }
}
