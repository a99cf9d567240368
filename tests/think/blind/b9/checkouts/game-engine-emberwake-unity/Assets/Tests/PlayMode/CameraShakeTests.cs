using System.Collections;
using NUnit.Framework;
using UnityEngine;
using UnityEngine.TestTools;

public class CameraShakeTests
{
    [UnityTest]
    public IEnumerator Shake_DecaysToZero()
    {
        var go = new GameObject("cam");
        var shake = go.AddComponent<CameraShake>();
        shake.Trigger(1f);
        yield return new WaitForSeconds(1.2f);
        Assert.AreEqual(0f, shake.CurrentIntensity, 1e-3f);
    }
}
