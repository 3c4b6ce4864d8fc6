/* rtg_demangle (src/common/demangle.c):
 *   - every kernel name of Debian's ROCm libraries in the corpus
 *     tests/data/demangle/kernels.tsv.xz (its README says which) demangles
 *     to exactly the text llvm-cxxfilt gave for it;
 *   - when an llvm-cxxfilt is installed (PATH: llvm-cxxfilt-NN or
 *     llvm-cxxfilt, or $RTG_CXXFILT), its live text agrees wherever it
 *     demangles a corpus name (an older one leaves some mangled);
 *   - hand-written names cover the grammar's corners (llvm-cxxfilt 22's text);
 *   - malformed, truncated, too deep, too long or exploding names give NULL,
 *     and no input is read past its length (each is an exact-size copy, so
 *     a sanitizer build sees any overread). */
#define _GNU_SOURCE
#include "check.h"
#include "demangle.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* demangles an exact-size copy of s[0..n) */
static char *dm(const char *s, size_t n) {
  char *copy = malloc(n ? n : 1);
  if (!copy) return NULL;
  memcpy(copy, s, n);
  char *r = rtg_demangle(copy, n);
  free(copy);
  return r;
}

static char *dms(const char *s) {
  return dm(s, strlen(s));
}

static const struct {
  const char *in, *out;
} cases[] = {
    {"_Z1fIiEvDTcvT_fp_E", "void f<int>(decltype((int)(fp)))"},
    {"_Z1fIiEvDTcvT__fp_EE", "void f<int>(decltype((int)(fp)))"},
    {"_Z1fDF16b", "f(std::bfloat16_t)"},
    {"_Z1fDn", "f(std::nullptr_t)"},
    {"_Z1fDF16_", "f(_Float16)"},
    {"_Z6kernelIiZ4mainEUlT_E_EvT0_",
     "void kernel<int, main::'lambda'(auto)>(main::'lambda'(auto))"},
    {"_Z6kernelIZ4mainEUlT_E_EvS0_", "void kernel<main::'lambda'(auto)>(auto)"},
    {"_Z1fIiEvPU3AS1KT_", "void f<int>(int const AS1*)"},
    {"_Z1fIiEvPU3AS1A3_i", "void f<int>(int [3] AS1*)"},
    {"_Z1fPFPFivEvE", "f(int (* (*)())())"},
    {"_ZN1AcvT_IiEEv", "A::operator int<int>()"},
    {"_Z1fILi1EEvPAplT_Li1E_i", "void f<1>(int (*) [1 + 1])"},
    {"_ZNSsC1Ev",
     "std::basic_string<char, std::char_traits<char>, std::allocator<char>>::basic_string()"},
    {"_ZNSs4sizeEv", "std::string::size()"},
    {"_ZTV1A", "vtable for A"},
    {"_ZN1AIiE1fEv.cold.1", "A<int>::f() (.cold.1)"},
    {"_Z1fIJEEvDpT_", "void f<>()"},
    {"_Z1fIJiEEvDpPT_", "void f<int>(int*)"},
    {"_Z1fDB12_DU3_", "f(_BitInt(12), unsigned _BitInt(3))"},
    {"_Z1fIiEvDTsrT_5valueE", "void f<int>(decltype(int::value))"},
    {"_Z1fIiEvPN9enable_ifIXgtstT_Li4EEvE4typeE",
     "void f<int>(enable_if<(sizeof (int) > 4), void>::type*)"},
    {"_Z1fv.kd", "f() (.kd)"},
    {"_Z1fIiEvu20__remove_reference_tIT_E", "void f<int>(__remove_reference_t(int))"},
    {"_ZZ4mainEN1AD1Ev", "main::A::~A()"},
    {"_Z1fM1AKFivE", "f(int (A::*)() const)"},
    {"_Z1fILb1ELc65ELj4ELl3ELy9ELn5EEvv", "void f<true, (char)65, 4u, 3l, 9ull, (__int128)5>()"},
    {"_Z1fIXadL_Z1gvEEEvv", "void f<&g()>()"},
    {"_Z1fIiEvDTnxcvT__EE", "void f<int>(decltype(noexcept ((int)())))"},
    {"_Z1fIJifEEvDpRKT_", "void f<int, float>(int const&, float const&)"},
    {"_Z1fRA3_i", "f(int (&) [3])"},
    {"_Z1fPA3_A4_i", "f(int (*) [3][4])"},
    {"_Z1fDv4_f", "f(float vector[4])"},
    {"_Z1fDv4_p", "f(pixel vector[4])"},
    {"_Z1fPKc", "f(char const*)"},
    {"_Z1fIiEvRAstT__i", "void f<int>(int (&) [sizeof (int)])"},
    {"_ZN12_GLOBAL__N_13fooB5cxx11Ev", "(anonymous namespace)::foo[abi:cxx11]()"},
    {"_ZNKSt6vectorIiSaIiEE4sizeEv", "std::vector<int, std::allocator<int>>::size() const"},
    {"_ZNSt6vectorIiSaIiEEixEm",
     "std::vector<int, std::allocator<int>>::operator[](unsigned long)"},
    {"_ZN1AplERKS_", "A::operator+(A const&)"},
    {"_ZN1AcviEv", "A::operator int()"},
    {"_ZN1AclEv", "A::operator()()"},
    {"_ZplRK1AS1_", "operator+(A const&, A const&)"},
    {"_ZZ1fvE1x", "f()::x"},
    {"_ZZ1fvE1x_0", "f()::x"},
    {"_ZZ1fvEs", "f()::string literal"},
    {"_ZGVZ1fvE1x", "guard variable for f()::x"},
    {"_ZTI1A", "typeinfo for A"},
    {"_ZTS1A", "typeinfo name for A"},
    {"_ZThn8_N1A1fEv", "non-virtual thunk to A::f()"},
    {"_ZTv0_n24_N1A1fEv", "virtual thunk to A::f()"},
    {"_ZN1AD0Ev", "A::~A()"},
    {"_ZN1AC2ERKS_", "A::A(A const&)"},
    {"_ZNSt3__112basic_stringIcNS_11char_traitsIcEENS_9allocatorIcEEEC1EPKc",
     "std::__1::basic_string<char, std::__1::char_traits<char>, "
     "std::__1::allocator<char>>::basic_string(char const*)"},
    {"_Z1fIiJfdEEvT_DpT0_", "void f<int, float, double>(int, float, double)"},
    {"_Z1fOi", "f(int&&)"},
    {"_Z1fIRiEvOT_", "void f<int&>(int&)"},
    {"_Z1fIJRiOiEEvDpOT_", "void f<int&, int&&>(int&, int&&)"},
    {"_Z1fILf3f800000EEvv", "void f<0x1p+0f>()"},
    {"_Z1fILd3ff0000000000000EEvv", "void f<0x1p+0>()"},
    {"_Z1fIXgtLi1ELi2EEEvv", "void f<(1 > 2)>()"},
    {"_Z1fIXrsLi1ELi2EEEvv", "void f<(1 >> 2)>()"},
    {"_Z1fIiEvDTclL_Z1gEfp_EE", "void f<int>(decltype(g(fp)))"},
    {"_Z1fIiEvDTcl1gfp_EE", "void f<int>(decltype(g(fp)))"},
    {"_Z1fIiEvDTdtfp_1xE", "void f<int>(decltype(fp.x))"},
    {"_Z1fIiEvDTptfp_1xE", "void f<int>(decltype(fp->x))"},
    {"_Z1fIiEvDTixfp_Li0EE", "void f<int>(decltype(fp[0]))"},
    {"_Z1fIiEvDTquLb1Efp_fp_E", "void f<int>(decltype(true ? fp : fp))"},
    {"_Z1fIiEvDTtlT_EE", "void f<int>(decltype(int{}))"},
    {"_Z1fIiEvDTtlT_Li1ELi2EEE", "void f<int>(decltype(int{1, 2}))"},
    {"_Z1fIiEvDTilLi1EEE", "void f<int>(decltype({1}))"},
    {"_Z1fIJiEEvDTfrplfp_E", "void f<int>(decltype(((fp...) + ...)))"},
    {"_Z1fIJiEEvDTflplfp_E", "void f<int>(decltype((... + (fp...))))"},
    {"_Z1fIJiEEvDTfLplLi1Efp_E", "void f<int>(decltype((1 + ... + (fp...))))"},
    {"_Z1fIJiEEvDTsZT_E", "void f<int>(decltype(sizeof...(int)))"},
    {"_Z1fIiEvDTnw_T_EE", "void f<int>(decltype(new int))"},
    {"_Z1fIiEvDTnw_T_piLi1EEE", "void f<int>(decltype(new int(1)))"},
    {"_Z1fIiEvDTdlfp_E", "void f<int>(decltype(delete fp))"},
    {"_Z1fIiEvDTdafp_E", "void f<int>(decltype(delete[] fp))"},
    {"_Z1fIiEvDTgsnw_T_EE", "void f<int>(decltype(::new int))"},
    {"_Z1fIiEvDTppfp_E", "void f<int>(decltype(fp++))"},
    {"_Z1fIiEvDTpp_fp_E", "void f<int>(decltype(++fp))"},
    {"_Z1fIiEvDTngfp_E", "void f<int>(decltype(-fp))"},
    {"_Z1fIiEvDTmlfp_plfp_fp_E", "void f<int>(decltype(fp * (fp + fp)))"},
    {"_Z1fIiEvDTplfp_mlfp_fp_E", "void f<int>(decltype(fp + fp * fp))"},
    {"_Z1fIiEvDTaSfp_fp_E", "void f<int>(decltype(fp = fp))"},
    {"_Z1fIiEvDTcmfp_fp_E", "void f<int>(decltype(fp, fp))"},
    {"_Z1fIiEvDTcl1gcmfp_fp_EE", "void f<int>(decltype(g((fp, fp))))"},
    {"_Z1fIiEvDTtwfp_E", "void f<int>(decltype(throw fp))"},
    {"_Z1fIiEvDTtrE", "void f<int>(decltype(throw))"},
    {"_Z1fIiEvDTsrNT_1A1BE1cE", "void f<int>(decltype(int::A::B::c))"},
    {"_Z1fIiEvDTsr1A1BIiEE1cE", "void f<int>(decltype(A::B<int>::c))"},
    {"_Z1fIiEvDTgssr1AE1cE", "void f<int>(decltype(::A::c))"},
    {"_Z1fIiEvDTsrT_onplE", "void f<int>(decltype(int::operator+))"},
    {"_Z1fIiEvDTsrT_dnT_E", "void f<int>(decltype(int::~int))"},
    {"_Z1fPFvvEPFvvE", "f(void (*)(), void (*)())"},
    {"_Z1fIiEvPFT_vE", "void f<int>(int (*)())"},
    {"_Z1fM1AFvvE", "f(void (A::*)())"},
    {"_Z1fM1AA3_i", "f(int(A::*) [3])"},
    {"_Z1fCd", "f(double complex)"},
    {"_Z1fGd", "f(double imaginary)"},
    {"_Z1fTs1A", "f(struct A)"},
    {"_Z1fTu1A", "f(union A)"},
    {"_Z1fTe1A", "f(enum A)"},
    {"_ZN1AIiEC1IfEET_", "A<int>::A<float>(float)"},
    {"_ZNK1A1fEv", "A::f() const"},
    {"_ZNVK1A1fEv", "A::f() const volatile"},
    {"_ZNR1A1fEv", "A::f() &"},
    {"_ZNO1A1fEv", "A::f() &&"},
    {"_ZNKR1A1fEv", "A::f() const &"},
    {"_Z1fPFivREPFivOE", "f(int (*)() &, int (*)() &&)"},
    {"_Z1fPKFivE", "f(int (*)() const)"},
    {"_Z1fPDoFivE", "f(int (*)() noexcept)"},
    {"_Z1fPDwiEFivE", "f(int (*)() throw(int))"},
    {"_Z1fIiEvPDOT_EFivE", "void f<int>(int (*)() noexcept(int))"},
    {"_ZN1AB5cxx11B3fooC1Ev", "A[abi:cxx11][abi:foo]::A()"},
    {"_Z1fU3AS1i", "f(int AS1)"},
    {"_Z1fPU3AS3U3AS4i", "f(int AS4 AS3*)"},
    {"_Z1fPU8__vectorIiEi", "f(int __vector<int>*)"},
    {"_ZN1AUt_E", "A::'unnamed'"},
    {"_ZN1AUt0_E", "A::'unnamed0'"},
    {"_ZN1AUlvE_clEv", "A::'lambda'()::operator()()"},
    {"_ZZ1fvENKUlvE_clEv", "f()::'lambda'()::operator()() const"},
    {"_ZZ1fvENKUlvE0_clEv", "f()::'lambda0'()::operator()() const"},
    {"_ZZ1fvENKUliE_clEi", "f()::'lambda'(int)::operator()(int) const"},
    {"_ZZ1fvENKUlT_E_clIiEEDaS_", "auto f()::'lambda'(auto)::operator()<int>(auto) const"},
    {"_ZZ1fvENKUlTyT_E_clIiEEDaS_",
     "auto f()::'lambda'<typename $T>($T)::operator()<int>($T) const"},
    {"_Z1fIZ1gvEUlvE_EvT_", "void f<g()::'lambda'()>(g()::'lambda'())"},
    {"_Z1fIXtlN1AELi1EEEEvv", "void f<A{1}>()"},
    {"_Z1fIXadL_ZN1A1fEvEEEvv", "void f<&A::f()>()"},
    {"_ZN1AIJLi1ELi2EEE1fEv", "A<1, 2>::f()"},
    {"_Z1fIJLi1ELi2EEEvv", "void f<1, 2>()"},
    {"_Z1fIJEEvv", "void f<>()"},
    {"_ZSt4cout", "std::cout"},
    {"_ZNSt8ios_base4InitC1Ev", "std::ios_base::Init::Init()"},
    {"_ZNSoD1Ev", "std::basic_ostream<char, std::char_traits<char>>::~basic_ostream()"},
    {"_ZNSiC2Ev", "std::basic_istream<char, std::char_traits<char>>::basic_istream()"},
    {"_ZNSdD0Ev", "std::basic_iostream<char, std::char_traits<char>>::~basic_iostream()"},
    {"_ZNSaIcED1Ev", "std::allocator<char>::~allocator()"},
    {"_ZNSbIwSt11char_traitsIwESaIwEEC1Ev", "std::basic_string<wchar_t, std::char_traits<wchar_t>, "
                                            "std::allocator<wchar_t>>::basic_string()"},
    {"_ZNSs6appendEPKcm", "std::string::append(char const*, unsigned long)"},
    {"_Z1fSs", "f(std::string)"},
    {"_Z1fSaIiE", "f(std::allocator<int>)"},
    {"_ZN9__gnu_cxx13new_allocatorIcE8allocateEmPKv",
     "__gnu_cxx::new_allocator<char>::allocate(unsigned long, void const*)"},
    {"_Z1fv.part.0.cold", "f() (.part.0.cold)"},
    {"_ZN1A1fEv.llvm.12345", "A::f() (.llvm.12345)"},
    {"_Z1f", "f"},
    {"_ZN1AE", "A"},
    {"_Z1fPPPPPPPPPPi", "f(int**********)"},
    {"_Z1fILZ1gEE", "f<g>"},
    {"_ZdlPv", "operator delete(void*)"},
    {"_Znwm", "operator new(unsigned long)"},
    {"_ZdaPvm", "operator delete[](void*, unsigned long)"},
    {"_Z1fIiEvPFPFT_vEvE", "void f<int>(int (* (*)())())"},
    {"_Z1fPA10_FivE", "f(int  (*) [10]())"},
    {"_Z1fRA10_KFivE", "f(int  (&) [10]() const)"},
    {"_Z1fPM1AFivE", "f(int (A::**)())"},
    {"_Z1fPM1AKFivE", "f(int (A::**)() const)"},
    {"_Z1fPM1AA2_i", "f(int(A::**) [2])"},
    {"_Z1fIiEvA_T_", "void f<int>(int [])"},
    {"_Z1fIiEvAstT__T_", "void f<int>(int [sizeof (int)])"},
    {"_Z1fDv2_Dv3_f", "f(float vector[3] vector[2])"},
    {"_Z1fPDv2_f", "f(float vector[2]*)"},
    {"_Z1fDv_f", "f(float vector[])"},
    {"_Z1fILi1EEvDvT__f", "void f<1>(float vector[1])"},
    {"_Z1fIiEvDBT__", "void f<int>(_BitInt(int))"},
    {"_Z1fIXLs1EEEvv", "void f<(short)1>()"},
    {"_Z1fIXLi0EEEvv", "void f<0>()"},
    {"_Z1fIXLin1EEEvv", "void f<-1>()"},
    {"_Z1fILin1EEvv", "void f<-1>()"},
    {"_Z1fIL1E1EEvv", "void f<(E)1>()"},
    {"_Z1fIL1En1EEvv", "void f<(E)-1>()"},
    {"_Z1fILDnEEvv", "void f<nullptr>()"},
    {"_Z1fILDn0EEvv", "void f<nullptr>()"},
    {"_Z1fIXLA5_cEEEvv", "void f<\"<char [5]>\">()"},
    {"_Z1fILUlvE_EEvv", "void f<[](){...}>()"},
    {"_Z1fILxn5EEvv", "void f<-5ll>()"},
    {"_Z1fILh255ELa1ELt3ELw65EEvv",
     "void f<(unsigned char)255, (signed char)1, (unsigned short)3, (wchar_t)65>()"},
    {"_Z1fIiEvDTsPT_iEE", "void f<int>(decltype(sizeof... (int, int)))"},
    {"_Z1fIiEvDTu8__uuidoftT_E", "void f<int>(decltype(__uuidof(int)))"},
    {"_Z1fIiEvDTu3fooT_EE", "void f<int>(decltype(foo(int)))"},
    {"_Z1fIiEvDTcvT_Li1EE", "void f<int>(decltype((int)(1)))"},
    {"_Z1fIiEvDTcvT__Li1ELi2EEE", "void f<int>(decltype((int)(1, 2)))"},
    {"_Z1fIiEvDTstT_E", "void f<int>(decltype(sizeof (int)))"},
    {"_Z1fIiEvDTszfp_E", "void f<int>(decltype(sizeof (fp)))"},
    {"_Z1fIiEvDTatT_E", "void f<int>(decltype(alignof (int)))"},
    {"_Z1fIiEvDTazfp_E", "void f<int>(decltype(alignof (fp)))"},
    {"_Z1fIiEvDTtiT_E", "void f<int>(decltype(typeid (int)))"},
    {"_Z1fIiEvDTtefp_E", "void f<int>(decltype(typeid (fp)))"},
    {"_Z1fIiEvDTdsfp_fp_E", "void f<int>(decltype(fp.*fp))"},
    {"_Z1fIiEvDTpmfp_fp_E", "void f<int>(decltype(fp->*fp))"},
    {"_Z1fIiEvDTccT_fp_E", "void f<int>(decltype(const_cast<int>(fp)))"},
    {"_Z1fIiEvDTdcT_fp_E", "void f<int>(decltype(dynamic_cast<int>(fp)))"},
    {"_Z1fIiEvDTrcT_fp_E", "void f<int>(decltype(reinterpret_cast<int>(fp)))"},
    {"_Z1fIiEvDTscT_fp_E", "void f<int>(decltype(static_cast<int>(fp)))"},
    {"_Z1fIiEvDTcpfp_EE", "void f<int>(decltype((fp)()))"},
    {"_Z1fIiEvDTdefp_E", "void f<int>(decltype(*fp))"},
    {"_Z1fIiEvDTadfp_E", "void f<int>(decltype(&fp))"},
    {"_Z1fIiEvDTfL0p_E", "void f<int>(decltype(fp))"},
    {"_Z1fIiEvDTfpK_E", "void f<int>(decltype(fp))"},
    {"_Z1fIiEvDTfp1_E", "void f<int>(decltype(fp1))"},
    {"_Z1fIiEvDTspfp_E", "void f<int>(decltype(fp...))"},
    {"_Z1fIiEvDTilixLi0ELi1EEE", "void f<int>(decltype({0[1]}))"},
    {"_Z1fIiEvDTildi1xLi1EEE", "void f<int>(decltype({.x = 1}))"},
    {"_Z1fIiEvDTildXLi0ELi1ELi2EEE", "void f<int>(decltype({[0 ... 1] = 2}))"},
    {"_Z1fIiEvDTtlT_di1xLi1EEE", "void f<int>(decltype(int{.x = 1}))"},
    {"_Z1fIiEvDTnxfp_E", "void f<int>(decltype(noexcept (fp)))"},
    {"_Z1fIiEvT_", "void f<int>(int)"},
    {"_Z1fSt6vectorIiSaIiEES1_",
     "f(std::vector<int, std::allocator<int>>, std::vector<int, std::allocator<int>>)"},
    {"_ZSt3maxIiERKT_S2_S2_", "int const& std::max<int>(int const&, int const&)"},
    {"_ZNKSt3__16vectorIiNS_9allocatorIiEEE4sizeEv",
     "std::__1::vector<int, std::__1::allocator<int>>::size() const"},
    {"_ZN5boost6detail17sp_counted_impl_pIN1A1BEE7disposeEv",
     "boost::detail::sp_counted_impl_p<A::B>::dispose()"},
    {"_ZNK3FooIXadL_Z3barvEEE3bazEv", "Foo<&bar()>::baz() const"},
    {"_Z3fooILPv0EEvv", "void foo<(void*)0>()"},
    {"_ZTCN1A1BE0_N1C1DE", "construction vtable for C::D-in-A::B"},
    {"_ZTTN1AE", "VTT for A"},
    {"_ZTH1x", "thread-local initialization routine for x"},
    {"_ZTW1x", "thread-local wrapper routine for x"},
    {"_ZGR1x_", "reference temporary for x"},
    {"_ZGR1x0_", "reference temporary for x"},
    {"_ZTcv0_n12_h8_N1A1fEv", "covariant return thunk to A::f()"},
    {"_ZN1ADC1a1bEE", "A::[a, b]"},
    {"_ZDC1a1bE", "[a, b]"},
    {"_ZN1AF1fEv", "A::friend f()"},
    {"_ZN1AUb_E", "A::'block-literal'"},
    {"_ZNH1A1fES_i", "A::f(this A, int)"},
    {"_ZN1Ali3fooEv", "A::operator\"\" foo()"},
    {"_ZN1Av11fooEv", "A::operator f::operator||()"},
    {"_ZTAXtl1AEE", "template parameter object for A{}"},
    {"_Z1fPVi", "f(int volatile*)"},
    {"_Z1fPrVKi", "f(int const volatile restrict*)"},
    {"_Z1fIiEvT_PS0_", "void f<int>(int, int*)"},
    {"_Z1fIPiEvT_PS_", "void f<int*>(int*, f*)"},
    {"_ZN1fIiE1gIiEEvDTsrNS_IT_EE1xE", "void f<int>::g<int>(decltype(f<int>::x))"},
    {"_ZZ1fvEN1AC1Ev", "f()::A::A()"},
    {"_ZZN1A1fEvE1x_1", "A::f()::x"},
    {"_ZZN1A1fEvE1x__12_", "A::f()::x"},
    {"_ZZ1fvEd_1x", "f()::x"},
    {"_ZZ1fvEd0_1x", "f()::x"},
    {"_Z1fIiEvT_DpS0_", "void f<int>(int, int...)"},
    {"_Z1fIJiEEvDpT_DpS0_", "void f<int>(int, int)"},
    {"_Z1fIJiEJfEEvDpT_DpT0_", "void f<int, float>(int, float)"},
    {"_Z1fIJiEJfEEvDpPFT_T0_E", "void f<int, float>(int (*)(float))"},
    {"_Z1fIJicEJfdEEvDpPFT_T0_E",
     "void f<int, char, float, double>(int (*)(float), char (*)(double))"},
    {"_Z1fIJEJEEvDpPFT_T0_E", "void f<>()"},
    {"_Z1fIJPiEEvT_", "void f<int*>(int*)"},
    {"_Z1fIJA3_iEEvPT_", "void f<int [3]>(int (*) [3])"},
    {"_Z1fIJFivEEEvPT_", "void f<int ()>(int (*)())"},
    {"_Z1fIJFivEFfvEEEvDpPT_", "void f<int (), float ()>(int (*)(), float (*)())"},
    {"_Z1fIJRiEEvDpOT_", "void f<int&>(int&)"},
    {"_Z1fIJiEEvPDpT_", "void f<int>(int*)"},
    /* rocRAND 6.4/7.2: an auto non-type template parameter (TnDa) */
    {"_ZN12rocrand_impl6system6detail14kernel_wrapperITnDaXadL_ZNS_4host19init_xorwow_enginesE"
     "4dim3S4_S4_S4_PN14rocrand_device13xorwow_engineEjjyyEENS3_33static_block_size_config_pro"
     "viderILj256EEEjLb0EJS7_jjyyEEEvDpT3_",
     "void rocrand_impl::system::detail::kernel_wrapper<&rocrand_impl::host::init_xorwow_engin"
     "es(dim3, dim3, dim3, dim3, rocrand_device::xorwow_engine*, unsigned int, unsigned int, u"
     "nsigned long long, unsigned long long), rocrand_impl::host::static_block_size_config_pro"
     "vider<256u>, unsigned int, false, rocrand_device::xorwow_engine*, unsigned int, unsigned"
     " int, unsigned long long, unsigned long long>(rocrand_device::xorwow_engine*, unsigned i"
     "nt, unsigned int, unsigned long long, unsigned long long)"},
    /* rocBLAS 6.4: a template parameter with an enable_if type (TnN...E) */
    {"_ZL27gemm_batched_general_kernelI10rocblas_f811rocblas_bf8DF16_S0_S1_fLi16ELi16ELi32ELi3"
     "2ELi8ELi32ELi8ELi8ELi32ELb0ELc67ELc67ELb0ETnNSt9enable_ifIXaaaatlSt7is_sameIfT4_EEootlS3"
     "_IS0_T2_EEtlS3_IS1_S6_EEootlS3_IS0_T3_EEtlS3_IS1_S9_EEEiE4typeELi0EEviiiS4_PKT_ilPKT0_il"
     "S4_PKT1_ilPSK_ilijjj",
     "void gemm_batched_general_kernel<rocblas_f8, rocblas_bf8, _Float16, rocblas_f8, rocblas_"
     "bf8, float, 16, 16, 32, 32, 8, 32, 8, 8, 32, false, (char)67, (char)67, false, 0>(int, i"
     "nt, int, float, rocblas_f8 const*, int, long, rocblas_bf8 const*, int, long, float, _Flo"
     "at16 const*, int, long, _Float16*, int, long, int, unsigned int, unsigned int, unsigned "
     "int)"},
};

/* names llvm-cxxfilt 22 leaves as they are: malformed, truncated, or
 * extensions it does not know */
static const char *const bad[] = {
    "_Z1fDF32x",
    "_ZN5Outer5InnerIiE3fooIfEEvT_T0_",
    "_Z1fIXscT_Li1EEEvv",
    "_ZN1A1fEvQ",
    "_Z1fIiEvT_Ua9enable_ifIXgtfp_Li0EEE",
    "_Z1fILZ1gvEUlvE_EEvv",
    "_Z",
    "_Z1",
    "_Z1fI",
    "_Z1fIi",
    "_ZN",
    "_ZN1A",
    "_Z1fS_",
    "_Z1fT_",
    "_Z1fILb2EEvv",
    "_Z1fILoEEvv",
    "_Z1fIiEvDTfpT1xE",
    "_ZN1A1BIiE1CIfE1fIjEEvT_T0_T1_",
    "_ZN1AIiE1BIfE1fIjEEvT_TL0__TL1__",
    "_ZN1AIiE1BIfE1fEvTL0__TL1__",
    "_ZN1AliIcE3fooEv",
    "main",
    "_ZN1A1fEv\x01",
    "_Z1f\nv",
    "_Z3fooc\x7f",
};

static void test_cases(void) {
  int ok = 0;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char *d = dms(cases[k].in);
    if (d && !strcmp(d, cases[k].out)) {
      ok++;
    } else {
      fprintf(stderr, "case %s\n  got:      %s\n  expected: %s\n", cases[k].in, d ? d : "(null)",
              cases[k].out);
    }
    free(d);
  }
  CHECK(ok == (int)(sizeof cases / sizeof cases[0]));
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    char *d = dms(bad[k]);
    if (d) fprintf(stderr, "bad %s gave %s\n", bad[k], d);
    CHECK(!d);
    free(d);
  }
}

/* a name of n nested pointers to int */
static char *pointers(size_t n) {
  char *s = malloc(n + 6);
  if (!s) return NULL;
  memcpy(s, "_Z1f", 4);
  memset(s + 4, 'P', n);
  memcpy(s + 4 + n, "i", 2);
  return s;
}

/* _Z1f std::pair<int, int>, then levels of pair<previous, previous>:
 * S_ is std::pair, S<k>_ the previous level (seq-ids count in base 36) */
static const char *doubling(char *buf, int levels) {
  static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  strcpy(buf, "_Z1fSt4pairIiiE");
  for (int k = 0; k < levels; k++) {
    char id[4] = {0};
    if (k < 36)
      id[0] = digits[k];
    else
      id[0] = digits[k / 36], id[1] = digits[k % 36];
    sprintf(buf + strlen(buf), "S_IS%s_S%s_E", id, id);
  }
  return buf;
}

static void test_limits(void) {
  CHECK(!rtg_demangle(NULL, 5));
  CHECK(!rtg_demangle("_Z1fv", 0));
  CHECK(!rtg_demangle("_Z1fv", 2));
  CHECK(!dm("_Z1f\0v", 6));    /* NUL inside */
  char *d = dm("_Z1fvXYZ", 5); /* only len bytes count */
  CHECK_STR(d, "f()");
  free(d);

  /* nesting within the bounds works, past them gives NULL */
  char *s = pointers(150);
  d = s ? dms(s) : NULL;
  CHECK(d && strlen(d) == strlen("f(int)") + 150 && !strncmp(d, "f(int***", 8));
  free(d);
  free(s);
  s = pointers(100000);
  CHECK(s && !dms(s));
  free(s);

  /* each level doubles the text: 40 levels would be terabytes */
  char name[1024];
  d = dms(doubling(name, 40));
  CHECK(!d);
  free(d);
  d = dms(doubling(name, 10)); /* ...while 10 levels fit */
  CHECK(d && strlen(d) > 10000);
  free(d);

  /* too long */
  size_t n = RTG_DEMANGLE_MAX_IN + 1;
  s = malloc(n);
  if (s) {
    memset(s, 'i', n);
    memcpy(s, "_Z1f", 4);
    CHECK(!dm(s, n));
    free(s);
  }
}

typedef struct {
  char *text; /* the decompressed corpus, lines split in place */
  char **in, **out;
  size_t n;
} corpus;

static int load_corpus(corpus *c) {
  const char *top = getenv("TOP");
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "xz -dc '%s/tests/data/demangle/kernels.tsv.xz'", top ? top : ".");
  FILE *f = popen(cmd, "r");
  if (!f) return 0;
  size_t cap = 1 << 20, len = 0, got;
  c->text = malloc(cap);
  while (c->text && (got = fread(c->text + len, 1, cap - len - 1, f)) > 0) {
    len += got;
    if (len + 1 == cap) c->text = realloc(c->text, cap *= 2);
  }
  if (pclose(f) != 0 || !c->text || !len) return 0;
  c->text[len] = 0;
  size_t lines = 0;
  for (size_t k = 0; k < len; k++) lines += c->text[k] == '\n';
  c->in = calloc(lines + 1, sizeof *c->in);
  c->out = calloc(lines + 1, sizeof *c->out);
  if (!c->in || !c->out) return 0;
  for (char *p = c->text, *nl; *p; p = nl + 1) {
    nl = strchr(p, '\n');
    if (!nl) break;
    *nl = 0;
    char *tab = strchr(p, '\t');
    if (!tab) return 0;
    *tab = 0;
    c->in[c->n] = p;
    c->out[c->n++] = tab + 1;
  }
  return c->n > 0;
}

static void test_corpus(const corpus *c) {
  size_t match = 0, shown = 0;
  for (size_t k = 0; k < c->n; k++) {
    char *d = dms(c->in[k]);
    if (d && !strcmp(d, c->out[k])) {
      match++;
    } else if (shown++ < 10) {
      fprintf(stderr, "corpus %s\n  got:      %s\n  expected: %s\n", c->in[k], d ? d : "(null)",
              c->out[k]);
    }
    free(d);
  }
  printf("corpus: %zu of %zu names as llvm-cxxfilt shows them\n", match, c->n);
  CHECK(match == c->n);
}

/* every prefix of every 97th name: NULL or some text, no overread */
static void test_truncated(const corpus *c) {
  size_t calls = 0;
  for (size_t k = 0; k < c->n; k += 97) {
    size_t len = strlen(c->in[k]);
    for (size_t m = 0; m < len; m++, calls++) free(dm(c->in[k], m));
  }
  CHECK(calls > 1000);
}

/* the newest llvm-cxxfilt-NN on PATH, else llvm-cxxfilt; NULL when none */
static const char *find_cxxfilt(char *buf, size_t size) {
  const char *env = getenv("RTG_CXXFILT");
  if (env && *env) return env;
  const char *path = getenv("PATH");
  for (int v = 40; v >= 0; v--) {
    for (const char *p = path; p && *p;) {
      size_t n = strcspn(p, ":");
      if (v)
        snprintf(buf, size, "%.*s/llvm-cxxfilt-%d", (int)n, p, v);
      else
        snprintf(buf, size, "%.*s/llvm-cxxfilt", (int)n, p);
      if (n && access(buf, X_OK) == 0) return buf;
      p += n + (p[n] == ':');
    }
  }
  return NULL;
}

static void test_live(const corpus *c) {
  char tool[4096], names[] = "/tmp/rtg_demangle_XXXXXX";
  const char *cxxfilt = find_cxxfilt(tool, sizeof tool);
  if (!cxxfilt) {
    printf("live: no llvm-cxxfilt found, skipped\n");
    return;
  }
  int fd = mkstemp(names);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  CHECK(f);
  if (!f) return;
  for (size_t k = 0; k < c->n; k++) fprintf(f, "%s\n", c->in[k]);
  fclose(f);
  char cmd[8300];
  snprintf(cmd, sizeof cmd, "'%s' < %s", cxxfilt, names);
  FILE *p = popen(cmd, "r");
  char *line = NULL;
  size_t cap = 0, k = 0, same = 0, left_mangled = 0, shown = 0;
  ssize_t n;
  while (p && k < c->n && (n = getline(&line, &cap, p)) > 0) {
    if (line[n - 1] == '\n') line[--n] = 0;
    if (!strcmp(line, c->in[k])) {
      left_mangled++;
    } else {
      char *d = dms(c->in[k]);
      if (d && !strcmp(d, line))
        same++;
      else if (shown++ < 10)
        fprintf(stderr, "live %s\n  got:      %s\n  %s: %s\n", c->in[k], d ? d : "(null)", cxxfilt,
                line);
      free(d);
    }
    k++;
  }
  free(line);
  CHECK(p && pclose(p) == 0);
  unlink(names);
  printf("live: %s demangles %zu of %zu names, %zu of them as rtg_demangle (%zu left mangled)\n",
         cxxfilt, k - left_mangled, c->n, same, left_mangled);
  CHECK(k == c->n);
  CHECK(same + left_mangled == k);
}

int main(void) {
  test_cases();
  test_limits();
  corpus c = {0};
  int loaded = 0;
  if (system("command -v xz >/dev/null 2>&1") != 0) { /* scripts/install-deps.sh installs it */
    printf("corpus: no xz to decompress it, skipped\n");
  } else {
    loaded = load_corpus(&c);
    CHECK(loaded);
  }
  if (loaded) {
    test_corpus(&c);
    test_truncated(&c);
    test_live(&c);
  }
  free(c.text);
  free(c.in);
  free(c.out);
  return check_done("test_demangle");
}
