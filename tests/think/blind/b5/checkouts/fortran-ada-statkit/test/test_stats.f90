module test_stats
  use testdrive, only: new_unittest, unittest_type, error_type, check
  use statkit, only: dp, mean, variance
  implicit none
  private
  public :: collect_stats

contains

  subroutine collect_stats(testsuite)
    type(unittest_type), allocatable, intent(out) :: testsuite(:)
    testsuite = [ &
      new_unittest("mean_of_constant", test_mean_constant), &
      new_unittest("variance_sample", test_variance_sample) &
    ]
  end subroutine collect_stats

  subroutine test_mean_constant(error)
    type(error_type), allocatable, intent(out) :: error
    call check(error, mean([2.0_dp, 2.0_dp, 2.0_dp]), 2.0_dp)
  end subroutine test_mean_constant

  subroutine test_variance_sample(error)
    type(error_type), allocatable, intent(out) :: error
    call check(error, variance([1.0_dp, 2.0_dp, 3.0_dp, 4.0_dp]), 5.0_dp/3.0_dp, thr=1.0e-12_dp)
  end subroutine test_variance_sample

end module test_stats
