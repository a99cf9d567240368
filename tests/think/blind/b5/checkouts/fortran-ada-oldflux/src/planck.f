C     ------------------------------------------------------------------
C     PLANCK  --  BLACKBODY SPECTRAL RADIANCE B(NU,T), CGS UNITS
C     ------------------------------------------------------------------
      DOUBLE PRECISION FUNCTION PLANCK(WNU, T)
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (C1 = 1.191042D-5, C2 = 1.4387770D0)
      IF (T .LE. 0.0D0) THEN
         PLANCK = 0.0D0
         RETURN
      ENDIF
      X = C2 * WNU / T
      PLANCK = C1 * WNU**3 / (EXP(X) - 1.0D0)
      RETURN
      END
