import Testing
@testable import PhotoValidatorServer

@Suite("Idempotency keys taken in turn, without threads")
struct KeyClaimsTests {
    @Test("a free key is taken at once; repeats queue behind it and get it in order; the last release frees it")
    func turns() {
        var claims = KeyClaims<String>()
        let step1 = claims.claim("k", waiter: "first")
        #expect(step1)
        let step2 = claims.claim("k", waiter: "second")
        #expect(!step2)
        let step3 = claims.claim("k", waiter: "third")
        #expect(!step3)
        let step4 = claims.claim("other", waiter: "elsewhere")
        #expect(step4)
        #expect(claims.heldCount == 2 && claims.waitingCount == 2)
        let step5 = claims.release("k")
        #expect(step5 == "second")
        let step6 = claims.release("k")
        #expect(step6 == "third")
        #expect(claims.heldCount == 2 && claims.waitingCount == 0)
        let step7 = claims.release("k")
        #expect(step7 == nil)
        #expect(claims.heldCount == 1)
        let step8 = claims.claim("k", waiter: "again")
        #expect(step8)
    }

    @Test("releasing a key nobody holds does nothing")
    func strayRelease() {
        var claims = KeyClaims<Int>()
        let step9 = claims.release("never")
        #expect(step9 == nil)
        #expect(claims.heldCount == 0)
    }
}
