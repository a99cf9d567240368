#include <jni.h>
#include <android/log.h>
#include "acme/decoder.h"

#define LOG_TAG "AcmeNative"
#define LOGE(...) __android_log_print(ANDROID_LOG_ERROR, LOG_TAG, __VA_ARGS__)

extern "C" {

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* /*reserved*/) {
    JNIEnv* env = nullptr;
    if (vm->GetEnv(reinterpret_cast<void**>(&env), JNI_VERSION_1_6) != JNI_OK) {
        return JNI_ERR;
    }
    return JNI_VERSION_1_6;
}

JNIEXPORT jlong JNICALL
Java_com_acme_player_Native_init(JNIEnv* env, jobject /*thiz*/, jint sample_rate, jint channels) {
    return reinterpret_cast<jlong>(new acme::Decoder(sample_rate, channels));
}

JNIEXPORT jint JNICALL
Java_com_acme_player_Native_decode(JNIEnv* env, jobject /*thiz*/, jlong handle,
                                   jbyteArray packet, jshortArray out) {
    auto* dec = reinterpret_cast<acme::Decoder*>(handle);
    jsize len = env->GetArrayLength(packet);
    jbyte* in = env->GetByteArrayElements(packet, nullptr);
    jshort* pcm = env->GetShortArrayElements(out, nullptr);
    int n = dec->decode(reinterpret_cast<const uint8_t*>(in), static_cast<size_t>(len), pcm);
    env->ReleaseByteArrayElements(packet, in, JNI_ABORT);
    env->ReleaseShortArrayElements(out, pcm, 0);
    return n;
}

JNIEXPORT void JNICALL
Java_com_acme_player_Native_setGain(JNIEnv* env, jobject /*thiz*/, jlong handle, jfloat gain) {
    reinterpret_cast<acme::Decoder*>(handle)->set_gain(gain);
}

JNIEXPORT void JNICALL
Java_com_acme_player_Native_release(JNIEnv* env, jobject /*thiz*/, jlong handle) {
    delete reinterpret_cast<acme::Decoder*>(handle);
}

}  // extern "C"
