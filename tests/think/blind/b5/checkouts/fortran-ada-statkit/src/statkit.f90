module statkit
  use, intrinsic :: iso_fortran_env, only: dp => real64
  implicit none
  private
  public :: dp, mean, variance

contains

  pure real(dp) function mean(x)
    real(dp), intent(in) :: x(:)
    mean = sum(x) / real(size(x), dp)
  end function mean

  pure real(dp) function variance(x)
    real(dp), intent(in) :: x(:)
    real(dp) :: m
    m = mean(x)
    variance = sum((x - m)**2) / real(size(x) - 1, dp)
  end function variance

end module statkit
