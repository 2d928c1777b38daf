"""Korean word lists, as data.

Korean verbs take endings (조회합니다, 검색하고, 삭제한), and nouns take
particles (목록을, 사용자의), so every entry here is a *stem*: text helpers match a
word by its longest known stem prefix (see `text.py`).
"""

from __future__ import annotations

READ = frozenset("조회 검색 확인 보기 찾기 찾아 찾 목록 열람 가져오 가져옵 불러오 읽 표시 보여".split())

WRITE = frozenset("""
생성 추가 수정 변경 저장 등록 주문 결제 발송 전송 예약 신청 작성 입력 업로드 송금 구매 게시 보내 만들
""".split())

IRREVERSIBLE = frozenset("결제 송금 발송 전송 구매 삭제 보내".split())

DESTRUCTIVE = frozenset("삭제 제거 취소 해지 초기화 폐기 탈퇴".split())

RESULT_WORDS = frozenset("반환 결과 돌려줍 돌려주 돌려준 응답 출력 알려줍 알려주 알려준 리턴".split())

COMPUTE = frozenset("계산 변환 번역 생성 요약 분석 예측 추정 평가 검증 감지 분류 인식 추출 측정 비교 추천".split())

# Stems that carry no content in a description ("해당 정보를 조회합니다").
FILLER = frozenset("""
해당 특정 주어진 지정 정보 기능 도구 데이터베이스 시스템 서버 및 또는 대한 위한 위해 통해 사용 수 있
""".split())

# Endings and particles, longest first, stripped to reach a stem.
ENDINGS = tuple(sorted(set("""
했습니다 합니다 됩니다 입니다 하십시오 하세요 해주세요 해줍니다 합니까 하였다 하며 하고 하는 하여 해서
했다 한다 하기 하면 한 할 함 해 된 되는 되어 되고 에서는 에서 으로 에게 까지 부터 처럼 보다 이나 이며
이고 의 을 를 은 는 이 가 에 로 와 과 도 만 들
""".split()), key=len, reverse=True))

# Korean stems → the English name words they translate, for comparing a Korean
# description with an English tool name ("상태 조회" restates get_status).
TO_ENGLISH: dict[str, frozenset[str]] = {stem: frozenset(english.split()) for stem, english in {
    "조회": "get lookup query fetch read view retrieve show check",
    "검색": "search find query lookup",
    "확인": "check verify confirm get",
    "보기": "view show",
    "찾기": "find search",
    "찾": "find search",
    "목록": "list",
    "열람": "view read",
    "가져오": "get fetch retrieve",
    "가져옵": "get fetch retrieve",
    "불러오": "load get fetch",
    "상태": "status state",
    "주문": "order",
    "생성": "create make new",
    "추가": "add create insert",
    "수정": "update edit modify",
    "변경": "change update modify set",
    "저장": "save store",
    "등록": "register add create",
    "결제": "pay payment charge",
    "발송": "send ship",
    "전송": "send transfer",
    "송금": "transfer send",
    "예약": "book booking reserve reservation",
    "신청": "apply request submit",
    "삭제": "delete remove",
    "제거": "remove delete",
    "취소": "cancel",
    "해지": "cancel terminate",
    "초기화": "reset clear",
    "사용자": "user users",
    "회원": "member user",
    "고객": "customer",
    "날씨": "weather",
    "파일": "file files",
    "메시지": "message messages",
    "이메일": "email mail",
    "메일": "email mail",
    "상품": "product item",
    "항목": "item items",
    "데이터": "data",
    "내역": "history list",
    "잔액": "balance",
    "계좌": "account",
    "주소": "address",
    "가격": "price",
    "재고": "stock inventory",
    "배송": "delivery shipping shipment",
    "상세": "detail details",
    "음식": "food",
    "식당": "restaurant",
    "일정": "schedule event calendar",
    "작업": "task job",
    "문서": "document doc",
    "계산": "calculate compute",
    "번역": "translate translation",
}.items()}

# Small closed sets of values (see english.CLOSED_SETS).
CLOSED_SETS = tuple(frozenset(group.split()) for group in (
    "섭씨 화씨", "오름차순 내림차순", "남성 여성", "남자 여자", "예 아니오", "오전 오후", "공개 비공개",
    "매수 매도", "낮음 보통 높음", "일간 주간 월간 연간",
))
